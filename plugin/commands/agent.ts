// `tracemaker agent BOARD --out FILE [--work-limit N] [--log FILE]`: the scripted repair agent
// over a session (see engine/session/repair-agent.ts); saves the result and prints a summary.

import { isErrorValue } from '../../engine/session/errors.ts';
import { repairAgent } from '../../engine/session/repair-agent.ts';
import { openSession } from '../session-host.ts';
import type { Command } from './command.ts';
import { sessionFlags } from './session.ts';

export const agent: Command = {
  name: 'agent',
  summary: 'a scripted repair agent over a session: route, then rip blockers and retry while it gains',
  usage: 'tracemaker agent BOARD --out FILE [--work-limit N] [--log FILE] [--variants V] [--threads T]',
  flags: { out: 'string', log: 'string', 'work-limit': 'number', variants: 'number', threads: 'number' },
  async run(args, out) {
    const { session } = openSession(sessionFlags(args, args.positional[0]));
    const v = args.flags.variants;
    const summary = await repairAgent(session, { variants: typeof v === 'number' ? v : undefined });
    const saved = !isErrorValue(await session.call('save', {}));
    out.stdout(JSON.stringify({ ...summary, saved }) + '\n');
    return saved ? 0 : 1;
  },
};
