// Opens a URL in the user's browser with the desktop's own opener, detached, so the host does
// not wait for (or die with) the browser. Failure is a value: the caller prints the URL anyway.

import { spawn } from 'node:child_process';

export function openBrowser(url: string): Promise<{ ok: true } | { ok: false; message: string }> {
  const [cmd, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { detached: true, stdio: 'ignore' });
    child.once('error', (e) => resolve({ ok: false, message: `${cmd}: ${e.message}` }));
    child.once('spawn', () => {
      child.unref();
      resolve({ ok: true });
    });
  });
}
