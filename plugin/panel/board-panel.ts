// A panel over a session opened on a board file (no editor): `tracemaker panel BOARD` and
// `tracemaker session … --view`. Gives the session a route port on a worker thread, wrapped for
// progress and Cancel, then starts the server. Closing it stops the server and the thread.

import type { DesignFiles } from '../../engine/kicad/load.ts';
import type { Session } from '../../engine/session/session.ts';
import { RouteMonitor } from './route-monitor.ts';
import { RouteThread } from './route-thread.ts';
import { type PanelServer, startPanelServer } from './server.ts';

export interface BoardPanelOptions {
  session: Session;
  /** The same texts the session's design was loaded from (the worker loads its own copy). */
  files: DesignFiles;
  readOnly?: boolean;
  canSave?: boolean;
  port?: number;
}

export async function startBoardPanel(o: BoardPanelOptions): Promise<PanelServer> {
  const thread = new RouteThread(o.files);
  const monitor = new RouteMonitor();
  // The session takes its ports at construction and offers no progress hook of its own, so the
  // route port is swapped before the first call; results are the same bytes either way.
  o.session.ports.route = monitor.wrap(thread.port());
  const server = await startPanelServer({ session: o.session, monitor, readOnly: o.readOnly, canSave: o.canSave, port: o.port });
  return {
    url: server.url,
    notify: () => server.notify(),
    async close() {
      await server.close();
      thread.close();
    },
  };
}
