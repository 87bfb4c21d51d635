// The `tracemaker` command: one executable for the command line, the KiCad launcher and the
// host. Each sub-command lives in plugin/commands/; this file parses flags and dispatches.

import { KicadParseError } from '../engine/kicad/sexpr.ts';
import { ProjectError } from '../engine/kicad/read-project.ts';
import type { Command, ParsedArgs } from './commands/command.ts';
import { COMMANDS } from './commands/index.ts';
import { UsageError } from './design-files.ts';
import { isRouteWorker, runRouteWorker } from './route-workers.ts';

function parseArgs(cmd: Command, argv: string[]): ParsedArgs {
  const out: ParsedArgs = { positional: [], flags: {} };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) {
      out.positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = a.slice(2, eq >= 0 ? eq : undefined);
    const kind = cmd.flags[name];
    if (!kind) throw new UsageError(`${cmd.name}: unknown option --${name}\nusage: ${cmd.usage}`);
    if (kind === 'boolean') {
      out.flags[name] = true;
      continue;
    }
    const value = eq >= 0 ? a.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new UsageError(`${cmd.name}: --${name} needs a value\nusage: ${cmd.usage}`);
    if (kind === 'number') {
      const n = Number(value);
      if (!Number.isFinite(n)) throw new UsageError(`${cmd.name}: --${name} expects a number, got "${value}"`);
      out.flags[name] = n;
    } else out.flags[name] = value;
  }
  if (out.positional.length < (cmd.minPositional ?? 1)) throw new UsageError(`${cmd.name}: missing argument\nusage: ${cmd.usage}`);
  return out;
}

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return ['usage: tracemaker <command> [options]', '', ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`), ''].join('\n');
}

const FS_CODES: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
};

/** A file-system failure (a path the user named) as one sentence; undefined for anything else. */
function fileSystemMessage(e: unknown): string | undefined {
  const err = e as { code?: unknown; path?: unknown; syscall?: unknown };
  if (typeof err?.code !== 'string' || typeof err.path !== 'string' || !(err.code in FS_CODES)) return undefined;
  const verb = err.syscall === 'open' || err.syscall === 'read' ? 'cannot open' : `cannot ${String(err.syscall ?? 'use')}`;
  return `${verb} ${err.path}: ${FS_CODES[err.code]}`;
}

export async function main(argv: string[]): Promise<number> {
  const out = { stdout: (t: string) => process.stdout.write(t), stderr: (t: string) => process.stderr.write(t) };
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === 'help') {
    out.stdout(help());
    return name ? 0 : 2;
  }
  const cmd = COMMANDS.find((c) => c.name === name);
  if (!cmd) {
    out.stderr(`tracemaker: unknown command "${name}"\n${help()}`);
    return 2;
  }
  try {
    return await cmd.run(parseArgs(cmd, rest), out);
  } catch (e) {
    if (e instanceof UsageError || e instanceof KicadParseError || e instanceof ProjectError) {
      out.stderr(`tracemaker ${name}: ${e.message}\n`);
      return 2;
    }
    const fsError = fileSystemMessage(e);
    if (fsError) {
      out.stderr(`tracemaker ${name}: ${fsError}\n`);
      return 2;
    }
    throw e;
  }
}

// The same bundle is the route worker's script; a worker routes and never runs the CLI.
if (isRouteWorker()) runRouteWorker();
else process.exitCode = await main(process.argv.slice(2));
