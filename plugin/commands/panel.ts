// `tracemaker panel BOARD [--out FILE] [--port N] [--work-limit N] [--open]`: the panel on a board
// file alone (engine only, no KiCad). The first line of stdout is the panel's URL, token
// included; it serves until interrupted. Save writes only the --out file.

import { UsageError } from '../design-files.ts';
import { openBrowser } from '../panel/open-browser.ts';
import { startPanelServer } from '../panel/server.ts';
import { openSession } from '../session-host.ts';
import type { Command } from './command.ts';

export const panel: Command = {
  name: 'panel',
  summary: 'the panel in the browser for a board file (no KiCad): route, rip, check, step through states',
  usage: 'tracemaker panel BOARD [--out FILE] [--port N] [--work-limit N] [--open]',
  flags: { out: 'string', port: 'number', 'work-limit': 'number', open: 'boolean' },
  async run(args, out) {
    const board = args.positional[0];
    const port = args.flags.port;
    if (port !== undefined && (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535))
      throw new UsageError('--port expects 0..65535');
    const wl = args.flags['work-limit'];
    if (wl !== undefined && (typeof wl !== 'number' || !Number.isInteger(wl) || wl < 1)) throw new UsageError('--work-limit expects a positive integer');
    const outFile = typeof args.flags.out === 'string' ? args.flags.out : undefined;
    // Without --out the panel's Save is refused before it reaches the session, so no file is named.
    const { session } = openSession({ board, out: outFile ?? '', workLimit: wl as number | undefined, diagnostics: (t) => out.stderr(t) });
    const server = await startPanelServer({ session: () => session, canSave: outFile !== undefined, port: port as number | undefined });
    out.stdout(server.url + '\n');
    if (args.flags.open) {
      const r = await openBrowser(server.url);
      if (!r.ok) out.stderr(`tracemaker panel: could not open a browser (${r.message}); open the address above\n`);
    }
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await server.close();
    return 0;
  },
};
