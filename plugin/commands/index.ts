// The table of sub-commands, in the order `tracemaker --help` lists them.

import type { Command } from './command.ts';
import { info } from './info.ts';

export const COMMANDS: Command[] = [info];
