// Files saved on Windows may end their lines with CRLF: the board, its project and its custom rules
// read the same, the route is the same, and the added copper follows the file's own line ends.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { opener } from '../../plugin/panel/open-browser.ts';
import { tracemaker } from './cli.ts';

const ASSETS = join(import.meta.dirname, '..', '..', 'assets');
const dir = mkdtempSync(join(tmpdir(), 'tmk-crlf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DRU = `(version 1)\n(rule "n1 wide"\n  (condition "A.NetName == 'N1'")\n  (constraint track_width (min 0.3mm) (opt 0.3mm)))\n`;
const crlf = (t: string) => t.replace(/\n/g, '\r\n');

function stage(stem: string, eol: (t: string) => string): string {
  writeFileSync(join(dir, `${stem}.kicad_pcb`), eol(readFileSync(join(ASSETS, 'demo.kicad_pcb'), 'utf8')));
  writeFileSync(join(dir, `${stem}.kicad_pro`), eol(readFileSync(join(ASSETS, 'demo.kicad_pro'), 'utf8')));
  writeFileSync(join(dir, `${stem}.kicad_dru`), eol(DRU));
  return join(dir, `${stem}.kicad_pcb`);
}

describe('CRLF line ends', () => {
  it('reads board, project and rules alike and routes the same, writing CRLF', () => {
    const win = stage('win', crlf);
    const unix = stage('unix', (t) => t);
    const info = (f: string) => JSON.parse(tracemaker(['info', f, '--json']).stdout);
    const a = info(win);
    const b = info(unix);
    expect(a.custom_rules).toEqual(['n1 wide']);
    expect({ ...a, board: '', warnings: a.warnings.length }).toEqual({ ...b, board: '', warnings: b.warnings.length });

    const outWin = join(dir, 'win.out.kicad_pcb');
    const outUnix = join(dir, 'unix.out.kicad_pcb');
    expect(tracemaker(['route', win, '--out', outWin]).code).toBe(0);
    expect(tracemaker(['route', unix, '--out', outUnix]).code).toBe(0);
    const w = readFileSync(outWin, 'utf8');
    expect(w.replace(/\r\n/g, '\n')).toBe(readFileSync(outUnix, 'utf8'));
    // Every line of the output, the added ones included, ends in CRLF.
    expect(
      w
        .split('\n')
        .slice(0, -1)
        .every((l) => l.endsWith('\r')),
    ).toBe(true);
    expect(w.length).toBeGreaterThan(readFileSync(win, 'utf8').length);
  });

  it("opens the panel with each platform's own URL handler", () => {
    const url = 'http://127.0.0.1:4000/abc/?x=1&y=2';
    expect(opener('win32', url)).toEqual(['rundll32', ['url.dll,FileProtocolHandler', url]]);
    expect(opener('darwin', url)).toEqual(['open', [url]]);
    expect(opener('linux', url)).toEqual(['xdg-open', [url]]);
  });
});
