// Opens a URL in the user's browser with the desktop's own opener (or the program named by
// TRACEMAKER_BROWSER, which is how tests capture the address instead of opening a browser),
// detached, so the host does not wait for (or die with) the browser. Failure is a value: the
// caller prints the URL anyway.

import { spawn } from 'node:child_process';

export type OpenResult = { ok: true } | { ok: false; message: string };

/** Opens `url`; `env` decides the program (TRACEMAKER_BROWSER, else the platform's opener). */
export function openBrowser(url: string, env: NodeJS.ProcessEnv = process.env): Promise<OpenResult> {
  const own = env.TRACEMAKER_BROWSER;
  const [cmd, args] = own ? [own, [url]] : opener(process.platform, url);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { detached: true, stdio: 'ignore', env, windowsHide: true });
    child.once('error', (e) => resolve({ ok: false, message: `${cmd}: ${e.message}` }));
    child.once('spawn', () => {
      child.unref();
      resolve({ ok: true });
    });
  });
}

/**
 * The platform's own way to open a URL in the default browser. On Windows the shell's URL handler
 * (rundll32 url.dll), not `cmd /c start`, whose command line would re-parse the URL's characters.
 */
export function opener(platform: NodeJS.Platform, url: string): [string, string[]] {
  if (platform === 'darwin') return ['open', [url]];
  if (platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler', url]];
  return ['xdg-open', [url]];
}
