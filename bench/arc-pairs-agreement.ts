// Agreement on differential pairs of arcs, beyond the hand-made board of
// tests/engine/drc/diff-pair-rules.test.ts: boards of eight random pairs of concentric arcs each
// (random centres off any round number, radii, sweeps, partly overlapping sweeps, one arc drawn
// each way, gaps in and out of the rule), judged by kicad-cli and the engine under a pair rule
// that allows no uncoupled length, so every pair's coupled length shows in the findings. Prints
// per board and KiCad version whether the findings agree word for word, then every mismatch.
//   npx tsx bench/arc-pairs-agreement.ts [BOARDS] (default 24; TRACEMAKER_KICAD=9|10|all)
import { Prng } from '../engine/geom/prng.ts';
import { generateBoard } from '../engine/kicad/generate-board.ts';
import { kicads } from '../tests/support/kicad.ts';
import { kicadFindings } from '../tests/support/kicad-findings.ts';
import { enginePairFindings, PAIR_TYPES, STRICT_PAIR_RULE } from '../tests/support/strict-pair-rule.ts';

const boards = Number(process.argv[2] ?? 24);

/** A board of eight random arc pairs (nets 1–16), seeded. */
function board(seed: number): { board: string; project: string } {
  const rnd = new Prng(seed);
  let uid = 0;
  const mm = (v: number) => v.toFixed(6);
  const arc = (cx: number, cy: number, r: number, a0: number, a1: number, net: number) => {
    const at = (a: number) => `${mm(cx + r * Math.cos((a * Math.PI) / 180))} ${mm(cy + r * Math.sin((a * Math.PI) / 180))}`;
    return `\t(arc (start ${at(a0)}) (mid ${at((a0 + a1) / 2)}) (end ${at(a1)}) (width 0.2) (layer "F.Cu") (net ${net}) (uuid "00000000-0000-4000-8000-${String(++uid).padStart(12, '0')}"))\n`;
  };
  let copper = '';
  for (let i = 0; i < 8; i++) {
    // Centres a few nanometres off a round number, or up to a micrometre off.
    const cx = 60 + (i % 4) * 5 + rnd.next() * 0.001 * (rnd.next() < 0.5 ? 1 : 1000);
    const cy = 3 + Math.floor(i / 4) * 6 + rnd.next() * 0.001;
    const r = 0.5 + rnd.next() * 2;
    const a0 = rnd.next() < 0.5 ? rnd.int(8) * 45 : rnd.next() * 360;
    const sweep = [45, 90, 135][rnd.int(3)];
    const shift = rnd.next() < 0.3 ? (rnd.next() - 0.5) * 20 : 0;
    const inner = rnd.next() < 0.5;
    const apart = 0.45 + (rnd.next() < 0.2 ? 0.2 : 0);
    copper += arc(cx, cy, inner ? r : r + apart, a0, a0 + sweep, 2 * i + 1);
    const [b0, b1] = rnd.next() < 0.5 ? [a0 + shift, a0 + sweep] : [a0 + sweep, a0 + shift];
    copper += arc(cx, cy, inner ? r + apart : r, b0, b1, 2 * i + 2);
  }
  const g = generateBoard({ nets: 16, padsPerNet: 2, layers: 2, width: 40, height: 30, seed: 3, pairs: 8 });
  return { board: g.board.trimEnd().replace(/\)$/, `${copper})\n`), project: g.project };
}

const tally = new Map<string, { same: number; total: number }>();
const mismatches: string[] = [];
for (let seed = 1; seed <= boards; seed++) {
  const { board: text, project } = board(seed);
  for (const k of kicads()) {
    const judged = kicadFindings(k, { board: text, project, dru: STRICT_PAIR_RULE }, PAIR_TYPES);
    const kicad = judged.findings.map((v) => v.description).sort();
    const engine = enginePairFindings({ board: judged.board, project, dru: STRICT_PAIR_RULE })
      .map((v) => v.description)
      .sort();
    const same = JSON.stringify(kicad) === JSON.stringify(engine);
    const t = tally.get(k.version) ?? { same: 0, total: 0 };
    tally.set(k.version, { same: t.same + (same ? 1 : 0), total: t.total + 1 });
    console.log(`board ${seed}  kicad-cli ${k.version}  ${kicad.length} findings  ${same ? 'same' : 'DIFFERENT'}`);
    if (!same) {
      const only = (a: string[], b: string[]) => a.filter((x) => !b.includes(x));
      mismatches.push(
        `board ${seed}, kicad-cli ${k.version}: kicad only [${only(kicad, engine).join(' | ')}]; engine only [${only(engine, kicad).join(' | ')}]`,
      );
    }
  }
}
for (const [v, t] of tally) console.log(`kicad-cli ${v}: ${t.same} of ${t.total} boards word for word`);
for (const m of mismatches) console.log(m);
