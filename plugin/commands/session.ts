// `tracemaker session BOARD --out FILE [--log FILE] [--work-limit N] [--threads T] [--jsonl]
// [--view]`: a session over stdio, MCP by default or JSON lines with --jsonl (--view: a read-only
// panel follows it, its URL on stderr); `--replay LOG BOARD --out FILE`, which runs a log's
// calls again and stops at the first that differs; and `--tools`, which needs no board and prints
// every tool with its description and JSON Schema (MCP's tools/list). stdout carries only protocol; everything else
// goes to stderr. --threads only spreads a route's variants: the bytes do not depend on it.

import { readFileSync } from 'node:fs';
import { readLogHeader, replay } from '../../engine/session/log.ts';
import { toolList } from '../../engine/session/schemas.ts';
import { JsonLinesServer } from '../jsonl.ts';
import { LineTransport, createMcpServer } from '../mcp.ts';
import { UsageError } from '../design-files.ts';
import { startPanelServer } from '../panel/server.ts';
import { openSession } from '../session-host.ts';
import type { Command, ParsedArgs } from './command.ts';

export const VERSION = '0.1.0';

export function sessionFlags(args: ParsedArgs, board: string) {
  const out = args.flags.out;
  if (typeof out !== 'string') throw new UsageError('--out FILE is required: the only file save writes');
  const wl = args.flags['work-limit'];
  if (wl !== undefined && (typeof wl !== 'number' || !Number.isInteger(wl) || wl < 1)) throw new UsageError('--work-limit expects a positive integer');
  const log = args.flags.log;
  const th = args.flags.threads;
  if (th !== undefined && (typeof th !== 'number' || !Number.isInteger(th) || th < 1 || th > 8)) throw new UsageError('--threads expects 1..8');
  return {
    board,
    out,
    log: typeof log === 'string' ? log : undefined,
    workLimit: wl as number | undefined,
    threads: th as number | undefined,
    diagnostics: (t: string) => void process.stderr.write(t),
  };
}

/** Pipes stdin into a byte consumer until it ends. */
function pumpStdin(push: (chunk: Uint8Array) => unknown): Promise<void> {
  return new Promise((resolve) => {
    process.stdin.on('data', (c: Buffer) => void push(c));
    process.stdin.on('end', () => resolve());
  });
}

export const session: Command = {
  name: 'session',
  summary: 'an agent session over stdio (MCP, or JSON lines with --jsonl); --replay LOG checks a log',
  usage:
    'tracemaker session BOARD --out FILE [--log FILE] [--work-limit N] [--threads T] [--jsonl] [--view] | tracemaker session --replay LOG BOARD --out FILE [--threads T] | tracemaker session --tools',
  flags: { out: 'string', log: 'string', 'work-limit': 'number', threads: 'number', jsonl: 'boolean', replay: 'string', view: 'boolean', tools: 'boolean' },
  minPositional: 0,
  async run(args, out) {
    if (args.flags.tools) {
      out.stdout(JSON.stringify({ tools: toolList() }, null, 2) + '\n');
      return 0;
    }
    const board = args.positional[0];
    if (!board) throw new UsageError(`session: missing BOARD\nusage: ${this.usage}`);
    if (typeof args.flags.replay === 'string') {
      const text = readFileSync(args.flags.replay, 'utf8');
      let header;
      try {
        header = readLogHeader(text);
      } catch (e) {
        throw new UsageError(`session --replay: ${(e as Error).message}`);
      }
      const f = sessionFlags({ ...args, flags: { ...args.flags, log: undefined, 'work-limit': header.work_limit ?? undefined } }, board);
      const { session: s, boardText } = openSession(f);
      const r = await replay(text, boardText, s);
      if (r.ok) {
        out.stdout(`replayed ${r.calls} calls: every result and state matches\n`);
        return 0;
      }
      out.stderr(
        `tracemaker session --replay: line ${r.line}${r.seq !== undefined ? ` (call ${r.seq}${r.tool ? `, ${JSON.stringify(r.tool)}` : ''})` : ''}: ${r.message}\n`,
      );
      return 1;
    }
    const { session: s } = openSession(sessionFlags(args, board));
    const view = args.flags.view ? await startPanelServer({ session: () => s, readOnly: true }) : undefined;
    if (view) out.stderr(`tracemaker session: watch at ${view.url}\n`);
    // With a viewer, the agent's routes report progress to its page (and run off this thread).
    const call = (tool: string, a: unknown) =>
      (view && tool === 'route' ? view.watch((cx) => s.dispatch(tool, a, cx)) : s.dispatch(tool, a)).finally(() => view?.notify());
    const write = (t: string) => void process.stdout.write(t);
    if (args.flags.jsonl) {
      const server = new JsonLinesServer(call, write);
      await pumpStdin((c) => server.push(c));
      await server.end();
      await view?.close();
      return 0;
    }
    const transport = new LineTransport(write);
    const server = createMcpServer(call, VERSION);
    await server.connect(transport);
    await pumpStdin((c) => transport.push(c));
    await transport.drained();
    await server.close();
    await view?.close();
    return 0;
  },
};
