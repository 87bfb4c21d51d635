// Prints what talking to a live KiCad costs: a Ping's round trip, and reading the largest bench board
// as .kicad_pcb text and as items, beside the engine's time to parse that text. Figures, not pass/fail.
// Run: npm run bench:ipc [-- path/to/board.kicad_pcb]
import { statSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseBoard } from '../engine/kicad/read-board.ts';
import { startKicad } from '../tests/live/kicad-harness.ts';
import { kicads } from '../tests/support/kicad.ts';

function largestBenchBoard(): string {
  const root = resolve('..', 'shared', 'bench', 'boards');
  let best = { path: '', size: -1 };
  for (const tier of readdirSync(root)) {
    for (const name of readdirSync(join(root, tier))) {
      const path = join(root, tier, name, `${name}.kicad_pcb`);
      const size = statSync(path, { throwIfNoEntry: false })?.size ?? -1;
      if (size > best.size) best = { path, size };
    }
  }
  return best.path;
}

async function timeIt(runs: number, fn: () => Promise<unknown> | unknown): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b);
}

const median = (t: number[]) => t[Math.floor(t.length / 2)];
const p95 = (t: number[]) => t[Math.min(t.length - 1, Math.floor(t.length * 0.95))];
const ms = (x: number) => `${x.toFixed(2)} ms`;

const board = process.argv[2] ? resolve(process.argv[2]) : largestBenchBoard();
const kicad = await startKicad({ board, kicad: kicads()[0] });
try {
  const client = await kicad.connect({ clientName: 'tracemaker-bench', timeoutMs: 60_000 });
  const { full } = await client.version();
  await client.boardText();
  const pings = await timeIt(300, () => client.ping());
  let text = '';
  const asText = await timeIt(7, async () => {
    text = await client.boardText();
  });
  let count = 0;
  const kinds = ['footprint', 'track', 'arc', 'via', 'zone', 'shape'] as const;
  const asItems = await timeIt(7, async () => {
    count = (await client.items([...kinds])).length;
  });
  const nets = await timeIt(7, () => client.nets());
  let pads = 0;
  const parse = await timeIt(7, () => {
    pads = parseBoard(text).pads.length;
  });

  console.log(`KiCad ${full}, board ${board.split('/').pop()} (${(text.length / 1e6).toFixed(2)} MB as text, ${count} items, ${pads} pads)`);
  console.log(`ping round trip            median ${ms(median(pings))}  p95 ${ms(p95(pings))}  (${pings.length} runs)`);
  console.log(`read as text               median ${ms(median(asText))}  (SaveDocumentToString, ${asText.length} runs)`);
  console.log(`read as items              median ${ms(median(asItems))}  (GetItems ${kinds.join('+')})`);
  console.log(`read nets                  median ${ms(median(nets))}`);
  console.log(`parse text (engine reader) median ${ms(median(parse))}`);
  console.log(`reading costs ${(median(asText) / median(parse)).toFixed(2)}× parsing (target < 1)`);
} finally {
  await kicad.stop();
}
