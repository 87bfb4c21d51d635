// `tracemaker relay start NAME BOARD --out FILE [--log FILE] [--work-limit N]` starts a session
// in the background on a per-user socket; `relay call NAME TOOL '{json}'` sends one call and
// prints the answer; `relay tools NAME` prints every tool with its description and JSON Schema
// (MCP's tools/list); `relay stop NAME` ends it. (`relay serve …` is the background process.)

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { toolList } from '../../engine/session/schemas.ts';
import { UsageError } from '../design-files.ts';
import { relayPaths, relaySend, serveRelay } from '../relay.ts';
import { openSession } from '../session-host.ts';
import type { Command } from './command.ts';
import { sessionFlags } from './session.ts';

async function waitFor(path: string, ms: number): Promise<boolean> {
  for (let t = 0; t < ms; t += 50) {
    if (existsSync(path)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

export const relay: Command = {
  name: 'relay',
  summary: 'keep a session alive in the background for shell-only agents (start | call | tools | stop)',
  usage: "tracemaker relay start NAME BOARD --out FILE [--log FILE] [--work-limit N] | relay call NAME TOOL '{json}' | relay tools NAME | relay stop NAME",
  flags: { out: 'string', log: 'string', 'work-limit': 'number' },
  minPositional: 2,
  async run(args, out) {
    const [verb, name, ...rest] = args.positional;
    const paths = relayPaths(name);
    if (verb === 'serve' || verb === 'start') {
      const board = rest[0];
      if (!board) throw new UsageError(`relay ${verb}: missing BOARD\nusage: ${this.usage}`);
      const f = sessionFlags(args, board);
      if (verb === 'serve') {
        await serveRelay(name, openSession(f).session);
        return 0;
      }
      if (existsSync(paths.socket)) throw new UsageError('relay start: a relay of that name is already running (relay stop NAME first)');
      const flags = ['--out', f.out, ...(f.log ? ['--log', f.log] : []), ...(f.workLimit !== undefined ? ['--work-limit', String(f.workLimit)] : [])];
      const child = spawn(process.execPath, [process.argv[1], 'relay', 'serve', name, board, ...flags], { detached: true, stdio: 'ignore' });
      child.unref();
      if (!(await waitFor(paths.socket, 20_000))) throw new UsageError('relay start: the session did not come up (check the board with tracemaker info)');
      out.stdout(JSON.stringify({ started: name, transcript: paths.transcript }) + '\n');
      return 0;
    }
    if (verb === 'call') {
      const [tool, json] = rest;
      if (!tool) throw new UsageError(`relay call: missing TOOL\nusage: ${this.usage}`);
      let a: unknown = {};
      if (json !== undefined) {
        try {
          a = JSON.parse(json);
        } catch {
          out.stdout(JSON.stringify({ error: { code: 'bad_argument', message: 'relay call: arguments are not valid JSON' } }) + '\n');
          return 1;
        }
      }
      const answer = await relaySend(name, JSON.stringify({ tool, args: a }));
      out.stdout(answer + '\n');
      return answer.startsWith('{"error"') ? 1 : 0;
    }
    if (verb === 'tools') {
      // The running relay's own list; with none running, this build's (the same table).
      const tools = existsSync(paths.socket) ? (JSON.parse(await relaySend(name, '{"relay":"tools"}')) as { tools: unknown }).tools : toolList();
      out.stdout(JSON.stringify({ tools }, null, 2) + '\n');
      return 0;
    }
    if (verb === 'stop') {
      out.stdout((await relaySend(name, '{"relay":"stop"}')) + '\n');
      return 0;
    }
    throw new UsageError(`relay: unknown verb\nusage: ${this.usage}`);
  },
};
