// Nets under custom rules the router does not model stay open with a `rule_not_supported`
// reason that names the rule, and the other nets route as if those nets had not been asked for.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { segment } from '../../../../engine/geom/index.ts';
import { loadDesign } from '../../../../engine/kicad/load.ts';
import type { HostRules, RouterHost } from '../../../../engine/route/index.ts';
import { routeDesign, routeHost } from '../../../../engine/route/index.ts';
import { TEST_RULES, testPad } from '../test-rules.ts';

const MM = 1_000_000;
const ASSETS = join(import.meta.dirname, '..', '..', '..', '..', 'assets');

const pad = (index: number, net: number, x: number, y: number) => testPad(index, net, x, y);

function world(rules: HostRules): RouterHost {
  const W = 20 * MM;
  return {
    layerCount: 2,
    layerName: (i) => (i === 0 ? 'F.Cu' : 'B.Cu'),
    netNames: ['', 'LEN', 'B'],
    // Net 1 has three pads (two connections); net 2 crosses its way.
    pads: [pad(0, 1, 3 * MM, 10 * MM), pad(1, 1, 17 * MM, 10 * MM), pad(2, 1, 10 * MM, 17 * MM), pad(3, 2, 10 * MM, 3 * MM), pad(4, 2, 10 * MM, 13 * MM)],
    obstacles: [],
    holes: [],
    outline: [segment(0, 0, W, 0, 0), segment(W, 0, W, W, 0), segment(W, W, 0, W, 0), segment(0, W, 0, 0, 0)],
    outlineEdges: Float64Array.of(0, 0, W, 0, W, 0, W, W, W, W, 0, W, 0, W, 0, 0),
    rules,
  };
}

const HOLD_NET_1: HostRules = {
  ...TEST_RULES,
  unmodelled: (net) => (net === 1 ? [{ rule: 'len_usb', file: 'board.kicad_dru', constraints: ['length'], unreadCondition: false }] : []),
};

const WHY = 'Custom rule "len_usb" in board.kicad_dru sets a length constraint the router does not model; route this net by hand.';

describe('nets under unmodelled custom rules', () => {
  it('leaves a held net open with a typed reason and routes the rest', () => {
    const r = routeHost(world(HOLD_NET_1), {}, 0);
    expect(r.open.map((c) => [c.netName, c.stuck?.reason, c.stuck?.why, c.stuck?.tried])).toEqual([
      ['LEN', 'rule_not_supported', WHY, false],
      ['LEN', 'rule_not_supported', WHY, false],
    ]);
    expect(r.open.map((c) => [c.from.ref, c.to.ref].sort())).toEqual([
      ['P0', 'P2'],
      ['P1', 'P2'],
    ]);
    expect(r.tracks.every((t) => t.net === 2)).toBe(true);
    // In name order, the held net among the routed.
    expect(r.nets.map((n) => [n.name, n.routed, n.open])).toEqual([
      ['B', 1, 0],
      ['LEN', 0, 2],
    ]);
    expect(r.summary).toMatchObject({ routed: 1, open: 2 });
  });

  it('routes the other nets exactly as when the held net is not asked for', () => {
    const held = routeHost(world(HOLD_NET_1), {}, 0);
    const alone = routeHost(world(TEST_RULES), { nets: [2] }, 0);
    expect(held.tracks).toEqual(alone.tracks);
    expect(held.vias).toEqual(alone.vias);
    expect(held.work).toBe(alone.work);
    // Without the hold, net 1 routes.
    expect(routeHost(world(TEST_RULES), {}, 0).summary.open).toBe(0);
  });

  it('a hold wins over an explicit request for the net', () => {
    const r = routeHost(world(HOLD_NET_1), { nets: [1] }, 0);
    expect(r.tracks).toEqual([]);
    expect(r.open.map((c) => c.stuck?.reason)).toEqual(['rule_not_supported', 'rule_not_supported']);
  });

  it('on a real board: a track_angle rule in the .kicad_dru holds its net, the others route', () => {
    const board = readFileSync(join(ASSETS, 'demo.kicad_pcb'), 'utf8');
    const project = readFileSync(join(ASSETS, 'demo.kicad_pro'), 'utf8');
    const dru = `(version 1)\n(rule "len_n1"\n  (condition "A.NetName == 'N1'")\n  (constraint track_angle (min 45deg)))\n`;
    const d = loadDesign({ board, project, dru, druName: '/x/demo.kicad_dru' });
    const n1 = d.board.netByName.get('N1')!;
    const r = routeDesign(d, { seed: 1 });
    const held = r.open.filter((c) => c.net === n1);
    expect(held.length).toBeGreaterThan(0);
    for (const c of held) {
      expect(c.stuck).toMatchObject({
        reason: 'rule_not_supported',
        why: 'Custom rule "len_n1" in demo.kicad_dru sets a track_angle constraint the router does not model; route this net by hand.',
        blockers: [],
      });
    }
    expect(r.open.every((c) => c.net === n1)).toBe(true);
    expect(r.tracks.some((t) => t.net === n1)).toBe(false);
    expect(r.summary.routed).toBeGreaterThan(0);

    // The others route as they do with no rules file when N1 is not asked for.
    const plain = loadDesign({ board, project });
    const others = [...new Set(r.connections.map((c) => c.net))].filter((n) => n !== n1);
    const ref = routeDesign(plain, { seed: 1, nets: others });
    expect(r.tracks).toEqual(ref.tracks);
    expect(r.vias).toEqual(ref.vias);
  });

  it('a rule that can only match pads holds no net; one that can match a via holds its nets', () => {
    const board = readFileSync(join(ASSETS, 'demo.kicad_pcb'), 'utf8');
    const project = readFileSync(join(ASSETS, 'demo.kicad_pro'), 'utf8');
    const padsOnly = `(version 1)
(rule "smd necks" (condition "A.Pad_Type == 'SMD'") (constraint connection_width (min 0.1mm)))
(rule "npth" (condition "A.Type == 'Pad' && !A.isPlated()") (constraint disallow via))
`;
    const free = routeDesign(loadDesign({ board, project, dru: padsOnly, druName: '/x/demo.kicad_dru' }), { seed: 1 });
    expect(free.open.filter((c) => c.stuck?.reason === 'rule_not_supported')).toEqual([]);
    const vias = `(version 1)\n(rule "plated" (condition "A.isPlated() && A.NetName == 'N1'") (constraint connection_width (min 0.1mm)))\n`;
    const d = loadDesign({ board, project, dru: vias, druName: '/x/demo.kicad_dru' });
    const n1 = d.board.netByName.get('N1')!;
    const r = routeDesign(d, { seed: 1 });
    expect(r.open.filter((c) => c.stuck?.reason === 'rule_not_supported').length).toBeGreaterThan(0);
    expect(r.open.filter((c) => c.stuck?.reason === 'rule_not_supported').every((c) => c.net === n1)).toBe(true);
  });
});
