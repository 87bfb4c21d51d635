// The route action against a stand-in for KiCad that serves a real board's text: nothing selected,
// unknown nets, a busy editor, a normal route, and a board edited while the router worked (re-read and
// routed once more; edited again, nothing is written).
import { readFileSync } from 'node:fs';
import { dirname, basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KicadBusyError, type BoardItem, type KicadClient, type NewItem } from '../../../ipc/index.ts';
import { canonicalNets, hostPorts, runAction, type ActionContext } from '../../../plugin/kicad-host/actions.ts';
import { exitCode } from '../../../plugin/kicad-host/outcomes.ts';
import { BoardSync } from '../../../plugin/kicad-host/board-sync.ts';
import { benchBoard } from '../../live/kicad-harness.ts';

const PATH = benchBoard('A', 'Blink-Eras_AVR_ISP_Pogo');
const TEXT = readFileSync(PATH, 'utf8');

class FakeEditor {
  constructor(readonly path = PATH) {}
  texts: string[] = [];
  selected: BoardItem[] = [];
  busy = false;
  commits: string[] = [];
  created: (NewItem & { id: string })[] = [];
  boardText = async () => {
    if (this.busy) throw new KicadBusyError('AS_BUSY', 'busy', 'SaveDocumentToString', 2000);
    return this.texts.length > 1 ? this.texts.shift()! : this.texts[0];
  };
  board = async () => ({ boardFilename: basename(this.path), projectName: '', projectPath: dirname(this.path) });
  selection = async () => {
    if (this.busy) throw new KicadBusyError('AS_BUSY', 'busy', 'GetSelection', 2000);
    return this.selected;
  };
  beginCommit = async () => ({
    delete: async () => undefined,
    create: async (items: NewItem[]) => {
      const made = items.map((i, k) => ({ ...i, id: `n${this.created.length + k}` }));
      this.created.push(...made);
      return made as unknown as BoardItem[];
    },
    push: async (message: string) => void this.commits.push(message),
    drop: async () => void this.commits.push('dropped'),
  });
  itemsById = async (ids: string[]) => this.created.filter((i) => ids.includes(i.id)) as unknown as BoardItem[];
  runAction = async () => 'ok';
}

function context(editor: FakeEditor): ActionContext {
  return {
    client: async () => editor as unknown as KicadClient,
    sync: new BoardSync((design, files) => hostPorts(design, files, () => undefined)),
    log: () => undefined,
  };
}

describe('route-selected', () => {
  it('with nothing selected writes nothing and says what to do', async () => {
    const ed = new FakeEditor();
    ed.texts = [TEXT];
    const r = await runAction(context(ed), { action: 'route-selected' });
    expect(r).toMatchObject({ ok: false, code: 'nothing_selected' });
    expect(r.message).toMatch(/^Nothing is selected/);
    expect(ed.commits).toEqual([]);
  });

  it('with only pads of no net selected says the selection has no nets, not that nothing is selected', async () => {
    const ed = new FakeEditor();
    ed.texts = [TEXT];
    ed.selected = [{ kind: 'pad', id: 'p', net: '' } as BoardItem];
    const r = await runAction(context(ed), { action: 'route-selected' });
    expect(r).toMatchObject({ ok: false, code: 'no_nets' });
    expect(r.message).toMatch(/^The selection has no nets: /);
    expect(exitCode(r.code)).toBe(0);
    expect(ed.commits).toEqual([]);
  });

  it('routes the nets in one order whatever order the selection listed them in', () => {
    const byName = new Map([
      ['B', 2],
      ['A', 1],
      ['C', 3],
    ]);
    expect(canonicalNets(['C', 'A', 'B', 'A'], byName)).toEqual(['A', 'B', 'C']);
  });

  it('names nets the board does not have', async () => {
    const ed = new FakeEditor();
    ed.texts = [TEXT];
    const r = await runAction(context(ed), { action: 'route-selected', nets: ['N$1', 'NOPE'] });
    expect(r).toMatchObject({ ok: false, code: 'unknown_nets' });
    expect(r.message).toContain('"NOPE"');
  });

  it('reports a busy editor', async () => {
    const ed = new FakeEditor();
    ed.texts = [TEXT];
    ed.busy = true;
    const r = await runAction(context(ed), { action: 'route-selected', nets: ['N$1'] });
    expect(r).toMatchObject({ ok: false, code: 'busy' });
    expect(ed.commits).toEqual([]);
  });

  it('routes the selected nets in one commit named after them', async () => {
    const ed = new FakeEditor();
    ed.texts = [TEXT];
    ed.selected = [{ kind: 'track', id: 't', locked: false, start: { x: 0, y: 0 }, end: { x: 1, y: 1 }, width: 1, layer: 'F.Cu', net: 'N$2' }];
    const r = await runAction(context(ed), { action: 'route-selected' });
    expect(r).toMatchObject({ ok: true, code: 'routed' });
    expect(ed.commits).toEqual(['Route 1 net: N$2']);
    expect(ed.created.length).toBeGreaterThan(0);
    expect(ed.created.every((i) => i.net === 'N$2' && i.locked === true)).toBe(true);
    expect(r.timing.sync).toBe('rebuilt');
  });

  it('routes both nets of a differential pair when one is selected, and the check says so', async () => {
    const usb = benchBoard('B', 'usb_rs232c_usb_rs232c_rev_a');
    const ed = new FakeEditor(usb);
    ed.texts = [readFileSync(usb, 'utf8')];
    const check = await runAction(context(ed), { action: 'check', nets: ['/USB_D+'] });
    expect(check.message).toMatch(
      /\nRouting the 1 selected net with 1 pair partner would connect 2 of 2 unrouted connections and add no DRC error\. Nothing was written\.$/,
    );
    ed.selected = [{ kind: 'pad', id: 'p', net: '/USB_D+' } as BoardItem];
    const r = await runAction(context(ed), { action: 'route-selected' });
    expect(r).toMatchObject({ ok: true, code: 'routed' });
    expect(ed.commits).toEqual(['Route 2 nets: /USB_D+, /USB_D-']);
    expect(r.message).toMatch(
      /\n\/USB_D\+ and \/USB_D- are routed as a coupled pair over \d+ % of their length at the 0\.25 mm pair gap \(lengths [\d.]+ and [\d.]+ mm\); its pads lie .+ and the tracks fan out to them over [\d.]+ mm of the longer net\.\n/,
    );
    expect(new Set(ed.created.map((i) => i.net))).toEqual(new Set(['/USB_D+', '/USB_D-']));
  });

  it('re-reads and routes once more when the board changed while routing', async () => {
    const ed = new FakeEditor();
    // First read, then the re-check sees an edit; after the re-read the board holds still.
    ed.texts = [TEXT, `${TEXT}\n`];
    const r = await runAction(context(ed), { action: 'route-selected', nets: ['N$1'] });
    expect(r).toMatchObject({ ok: true, code: 'routed' });
    expect(r.timing.resynced).toBe('rebuilt');
    expect(ed.commits).toEqual(['Route 1 net: N$1']);
  });

  it('writes nothing when the board keeps changing', async () => {
    const ed = new FakeEditor();
    ed.texts = [TEXT, `${TEXT}\n`, `${TEXT}\n\n`, `${TEXT}\n\n\n`];
    const r = await runAction(context(ed), { action: 'route-selected', nets: ['N$1'] });
    expect(r).toMatchObject({ ok: false, code: 'board_changed' });
    expect(ed.commits).toEqual([]);
  });

  it('checks the board and dry-runs the selection without writing', async () => {
    const ed = new FakeEditor();
    ed.texts = [TEXT];
    const r = await runAction(context(ed), { action: 'check', nets: ['N$1'] });
    expect(r).toMatchObject({ ok: true, code: 'checked' });
    expect(r.message).toBe(
      "TraceMaker's DRC of the board: 0 errors, 6 unrouted connections\nRouting the 1 selected net would connect 1 of 1 unrouted connection and add no DRC error. Nothing was written.",
    );
    expect(ed.commits).toEqual([]);
  });
});
