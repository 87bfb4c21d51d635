// Teardrops are a track's copper, not a plane: the selected-nets benchmark takes a net with
// teardrops as a signal net, and strips its teardrops with its tracks, as KiCad deletes them with
// a track. kicad-demo_flat_hierarchy's reference has 176 of them on its signal nets; counted as
// planes, they left its selection empty.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chooseNets } from '../../bench/choose-nets.ts';
import { stripBoard } from '../../bench/strip-board.ts';
import { parseBoard } from '../../engine/kicad/read-board.ts';
import { benchBoards } from '../support/bench.ts';

describe('teardrops in the selected-nets benchmark', () => {
  const b = benchBoards().find((x) => x.name === 'kicad-demo_flat_hierarchy')!;
  const text = readFileSync(b.ref, 'utf8');
  const board = parseBoard(text, { source: b.ref });

  it('reads a zone’s teardrop attribute', () => {
    const drops = board.zones.filter((z) => z.teardrop);
    expect(drops).toHaveLength(176);
    expect(drops.every((z) => z.name === '$teardrop_padvia$')).toBe(true);
    expect(board.zones.filter((z) => !z.teardrop).every((z) => z.name !== '$teardrop_padvia$')).toBe(true);
  });

  it('chooses nets with teardrops and strips their teardrops with their tracks', () => {
    const nets = chooseNets(board);
    expect(nets.length).toBeGreaterThan(0);
    const codes = new Set(nets.map((n) => board.netByName.get(n)!));
    const theirs = board.zones.filter((z) => z.teardrop && codes.has(z.net)).length;
    expect(theirs).toBeGreaterThan(0);
    const stripped = parseBoard(stripBoard(text, b.ref).text, { source: b.ref });
    expect(stripped.zones.filter((z) => codes.has(z.net))).toEqual([]);
    expect(stripped.zones).toHaveLength(board.zones.length - theirs);
    expect(stripped.tracks.filter((t) => codes.has(t.net))).toEqual([]);
  });
});
