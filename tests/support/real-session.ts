// A session on a loaded design with the real router and DRC (one thread), as the CLI makes it,
// but saving nothing and throwing internal failures so a test sees them.
import type { Design } from '../../engine/board/design.ts';
import type { DesignFiles } from '../../engine/kicad/load.ts';
import { Session } from '../../engine/session/session.ts';
import { sessionPorts } from '../../plugin/session-host.ts';

export function realSession(design: Design, files: DesignFiles, boardName: string): Session {
  const ports = sessionPorts(design, files, {
    threads: 1,
    save: () => undefined,
    internalError: (_t, e) => {
      throw e;
    },
  });
  return new Session(design, ports, { boardName });
}
