// The table of sub-commands, in the order `tracemaker --help` lists them.
// Each command registers here with one import and one line in the list.

import { agent } from './agent.ts';
import type { Command } from './command.ts';
import { drc } from './drc.ts';
import { generate } from './generate.ts';
import { info } from './info.ts';
import { kicad } from './kicad.ts';
import { pcmPackage } from './package.ts';
import { panel } from './panel.ts';
import { relay } from './relay.ts';
import { route } from './route.ts';
import { session } from './session.ts';

export const COMMANDS: Command[] = [info, drc, route, generate, session, relay, agent, panel, kicad, pcmPackage];
