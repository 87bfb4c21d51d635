// The host's reconciliation on a real board: the first sync parses, an unchanged board does not, the
// host's own copper coming and going (undo/redo in the editor) moves the session between its states,
// and any other change — or an edit of the host's copper — rebuilds with that copper as the board's own.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { addCopper } from '../../../engine/kicad/write-board.ts';
import { hostPorts } from '../../../plugin/kicad-host/actions.ts';
import { BoardSync, copperItems, type LiveBoard } from '../../../plugin/kicad-host/board-sync.ts';
import { copperUuid, topLevelItems } from '../../../plugin/kicad-host/board-text.ts';
import { copperDiff } from '../../../plugin/kicad-host/write-back.ts';
import { benchBoard } from '../../live/kicad-harness.ts';
import { ok } from '../../support/tool-results.ts';

const PATH = benchBoard('A', 'Blink-Eras_AVR_ISP_Pogo');
const TEXT = readFileSync(PATH, 'utf8');
const PRO = readFileSync(PATH.replace(/\.kicad_pcb$/, '.kicad_pro'), 'utf8');
const live = (text: string): LiveBoard => ({ text, path: PATH, project: PRO });

/** Routes `nets` in the session and returns the editor's text after the host "wrote" the new copper. */
async function routeAndWrite(sync: BoardSync, text: string, nets: string[]): Promise<string> {
  const s = sync.session;
  const before = s.states.current;
  const r = ok(await s.call('route', { nets }));
  expect(r.committed).toBe(true);
  const board = s.design.board;
  const diff = copperDiff(board, before.copper, s.states.current.copper);
  const tracks = diff.added.flatMap((i) => ('track' in i ? [i.track] : []));
  const vias = diff.added.flatMap((i) => ('via' in i ? [i.via] : []));
  const written = addCopper({ ...board, text }, tracks, vias);
  const items = topLevelItems(written).slice(-diff.added.length);
  const uuids = items.map((i) => copperUuid(written, i)!);
  sync.recordWritten(
    board,
    uuids.map((uuid, i) => ({ uuid, item: diff.added[i] })),
  );
  return written;
}

describe('board sync', () => {
  it('parses once, then keeps the session while only its own copper changes', async () => {
    const sync = new BoardSync((design, files) => hostPorts(design, files, () => undefined));
    expect(sync.sync(live(TEXT))).toMatchObject({ kind: 'rebuilt', why: 'first action on this board' });
    const session = sync.session;
    expect(sync.sync(live(TEXT)).kind).toBe('unchanged');

    const one = await routeAndWrite(sync, TEXT, ['N$1']);
    expect(sync.sync(live(one)).kind).toBe('unchanged');
    const two = await routeAndWrite(sync, one, ['N$2']);
    expect(sync.sync(live(two))).toMatchObject({ kind: 'unchanged' });
    expect(session.states.current.id).toBe(2);

    // Ctrl+Z in the editor takes the second route away: the session steps back to its parent.
    expect(sync.sync(live(one))).toMatchObject({ kind: 'own-copper', state: 1 });
    // Ctrl+Y brings it back.
    expect(sync.sync(live(two))).toMatchObject({ kind: 'own-copper', state: 2 });
    // Everything of ours gone (the user deleted it): back to the input state.
    expect(sync.sync(live(TEXT))).toMatchObject({ kind: 'own-copper', state: 0 });
    expect(sync.session).toBe(session);
  });

  it('records a mix no state has as a state of its own', async () => {
    const sync = new BoardSync((design, files) => hostPorts(design, files, () => undefined));
    sync.sync(live(TEXT));
    const one = await routeAndWrite(sync, TEXT, ['N$1']);
    sync.sync(live(one));
    // Delete one of our segments by hand.
    const items = topLevelItems(one);
    const last = items[items.length - 1];
    const fewer = one.slice(0, last.gap) + one.slice(last.end);
    const r = sync.sync(live(fewer));
    expect(r.kind).toBe('own-copper');
    expect(sync.session.states.current.call?.tool).toBe('sync');
    expect(copperItems(sync.session.states.current.copper)).toHaveLength(copperItems(sync.session.states.get(1)!.copper).length - 1);
  });

  it("rebuilds when the board changes or our copper is edited, and then our copper is the board's own", async () => {
    const sync = new BoardSync((design, files) => hostPorts(design, files, () => undefined));
    sync.sync(live(TEXT));
    const first = sync.session;
    const one = await routeAndWrite(sync, TEXT, ['N$1']);
    const moved = one.replace(/\(segment\n(\t+)\(start ([-\d.]+) /, (_m, tabs: string, x: string) => `(segment\n${tabs}(start ${Number(x) + 0.1} `);
    expect(moved).not.toBe(one);
    expect(sync.sync(live(moved))).toMatchObject({ kind: 'rebuilt', why: 'copper the host wrote was edited' });
    expect(sync.session).not.toBe(first);
    expect(sync.session.design.board.tracks.length).toBeGreaterThan(0);

    expect(sync.sync(live(moved)).kind).toBe('unchanged');
    expect(sync.sync({ ...live(moved), project: PRO.replace('"version"', '"version" ') }).kind).toBe('rebuilt');
  });
});
