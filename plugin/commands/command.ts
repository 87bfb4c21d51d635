// The shape of a `tracemaker` sub-command and its parsed arguments. Flags are declared per
// command, so an unknown flag or a flag without its value is a usage error naming it.

export type FlagKind = 'boolean' | 'string' | 'number';

export interface ParsedArgs {
  positional: string[];
  flags: Record<string, string | number | boolean | undefined>;
}

export interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  flags: Record<string, FlagKind>;
  /** Minimum number of positional arguments (default 1). */
  minPositional?: number;
  run(args: ParsedArgs, out: Output): number | Promise<number>;
}
