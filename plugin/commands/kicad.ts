// `tracemaker kicad ACTION`: the toolbar actions by hand, with the environment KiCad gives a plugin
// (KICAD_API_SOCKET, KICAD_API_TOKEN): route-selected, check, open-panel, and cancel (stop the route
// the host runs); `--nets A,B` names nets instead of using the editor's selection; `--progress`
// prints a route's progress as JSON lines and takes "cancel" lines on stdin (the launcher's progress
// window). Exit 0 for every outcome of normal work, 1 for a fault (outcomes.ts).
// `tracemaker kicad host …` is the host the launcher starts.
import { ACTION_NAMES, parseNetList, type ActionName } from '../kicad-host/actions.ts';
import { Host } from '../kicad-host/host.ts';
import { launch } from '../kicad-host/launcher.ts';
import { exitCode } from '../kicad-host/outcomes.ts';
import { UsageError } from '../design-files.ts';
import type { Command, ParsedArgs } from './command.ts';

const DEFAULT_IDLE_SECONDS = 20 * 60;

function idleSeconds(args: ParsedArgs): number | undefined {
  const v = args.flags['idle-seconds'];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 7 * 24 * 3600)
    throw new UsageError('kicad: --idle-seconds expects a whole number of seconds (1 … 604800)');
  return v;
}

async function runHost(args: ParsedArgs): Promise<number> {
  const need = (name: string) => {
    const v = args.flags[name];
    if (typeof v !== 'string' || v === '') throw new UsageError(`kicad host: --${name} is required`);
    return v;
  };
  const host = new Host({
    socket: need('socket'),
    kicadSocket: need('kicad-socket'),
    boardFilename: need('board'),
    log: need('log'),
    idleMs: (idleSeconds(args) ?? DEFAULT_IDLE_SECONDS) * 1000,
  });
  if (!(await host.start())) return 0;
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(sig, () => void host.stop(sig));
  await host.closed;
  return 0;
}

// The progress window's Cancel arrives as a "cancel" line on stdin: it is passed on to the host as a
// request of its own (the route's connection stays open for the answer). Returns the unsubscribe.
function cancelOnStdin(): () => void {
  let text = '';
  const onData = (d: Buffer) => {
    text += d.toString('utf8');
    if (!text.split('\n').some((l) => l.trim() === 'cancel')) return;
    text = '';
    void launch({ action: 'cancel', env: process.env });
  };
  process.stdin.on('data', onData);
  return () => {
    process.stdin.off('data', onData);
    process.stdin.destroy();
  };
}

export const kicad: Command = {
  name: 'kicad',
  summary: 'the KiCad toolbar actions by hand: route-selected, check, open-panel (KICAD_API_SOCKET/TOKEN as KiCad sets them)',
  usage: 'tracemaker kicad route-selected|check|open-panel|cancel [--nets N1,N2] [--json] [--progress] [--in-process] [--idle-seconds S]',
  flags: {
    nets: 'string',
    json: 'boolean',
    progress: 'boolean',
    'in-process': 'boolean',
    'idle-seconds': 'number',
    socket: 'string',
    'kicad-socket': 'string',
    board: 'string',
    log: 'string',
  },
  async run(args, out) {
    const [action, ...rest] = args.positional;
    if (rest.length > 0) throw new UsageError(`kicad: unexpected argument "${rest[0]}"\nusage: ${this.usage}`);
    if (action === 'host') return runHost(args);
    const actions: readonly string[] = [...ACTION_NAMES, 'cancel'];
    if (!actions.includes(action)) throw new UsageError(`kicad: unknown action "${action}" (expected ${actions.join(', ')})\nusage: ${this.usage}`);
    let nets: string[] | undefined;
    if (args.flags.nets !== undefined) {
      nets = parseNetList(String(args.flags.nets));
      if (nets.length === 0) throw new UsageError('kicad: --nets names no net');
      if (nets.length > 64) throw new UsageError('kicad: --nets names more than 64 nets');
    }
    const idle = idleSeconds(args);
    const progress = args.flags.progress === true && action === 'route-selected';
    const stopCancels = progress ? cancelOnStdin() : () => undefined;
    try {
      const result = await launch({
        action: action as ActionName | 'cancel',
        env: process.env,
        inProcess: args.flags['in-process'] === true,
        ...(nets ? { nets } : {}),
        ...(idle ? { hostIdleMs: idle * 1000 } : {}),
        ...(progress ? { onProgress: (p) => out.stdout(JSON.stringify({ progress: p }) + '\n') } : {}),
      });
      const code = exitCode(result.code);
      out.stdout(args.flags.json ? JSON.stringify({ ...result, exit_code: code }) + '\n' : `${result.message}\n`);
      return code;
    } finally {
      stopCancels();
    }
  },
};
