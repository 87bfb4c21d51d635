// Opens a URL in the user's browser with the desktop's own opener (or the program named by
// TRACEMAKER_BROWSER, which is how tests capture the address instead of opening a browser),
// detached, so the host does not wait for (or die with) the browser. Failure is a value: the
// caller prints the URL anyway.

import { spawn } from 'node:child_process';

export type OpenResult = { ok: true } | { ok: false; message: string };

/** Opens `url`; `env` decides the program (TRACEMAKER_BROWSER, else the platform's opener). */
export function openBrowser(url: string, env: NodeJS.ProcessEnv = process.env): Promise<OpenResult> {
  const own = env.TRACEMAKER_BROWSER;
  const [cmd, args] = own
    ? [own, [url]]
    : process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { detached: true, stdio: 'ignore', env });
    child.once('error', (e) => resolve({ ok: false, message: `${cmd}: ${e.message}` }));
    child.once('spawn', () => {
      child.unref();
      resolve({ ok: true });
    });
  });
}
