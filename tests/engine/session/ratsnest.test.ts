// The session's open connections stand on the DRC's connectivity: on real boards, with and
// without routed copper, their number is the DRC's unconnected count, each names two ends of
// its net in different clusters, and leaving zone fills out never closes a connection.
import { describe, expect, it } from 'vitest';
import { runDrc } from '../../../engine/drc/drc.ts';
import { routeDesign } from '../../../engine/route/index.ts';
import { NO_COPPER } from '../../../engine/session/copper.ts';
import { sessionDrc } from '../../../engine/session/drc-summary.ts';
import { openConnections, padOf, type End } from '../../../engine/session/ratsnest.ts';
import { loadDesignFile } from '../../../plugin/design-files.ts';
import { benchBoards } from '../../support/bench.ts';

// One board with a filled zone (ecc83-pp), one the router leaves a connection open on, and one
// whose pads carry teardrops (zones of signal nets), so open connections end on zones.
const BOARDS = ['kicad-demo_ecc83-pp', 'BB-PWR-8009_BB-PWR-8009_revA', 'kicad-demo_flat_hierarchy'];

describe('open connections on the DRC connectivity', () => {
  for (const name of BOARDS) {
    it(`counts what the DRC counts on ${name}, bare and routed`, () => {
      const design = loadDesignFile(benchBoards().find((b) => b.name === name)!.bare);
      const { board } = design;
      const bare = openConnections(board, NO_COPPER, { zones: true });
      expect(bare.length).toBeGreaterThan(0);
      expect(bare.length).toBe(runDrc(design).unconnected);

      // A set amount of work (about a default variant's here): the further rounds a default route
      // of a board left open would add change nothing this test counts.
      const routed = routeDesign(design, { variants: 1, work: 50_000_000 });
      const copper = { tracks: routed.tracks, vias: routed.vias };
      const after = openConnections(board, copper, { zones: true });
      expect(after.length).toBe(sessionDrc(design, copper, true).unconnected);
      expect(after.length).toBeLessThan(bare.length);

      const netOf = (e: End) => ('pad' in e ? board.pads[e.pad].net : board.zones[e.zone].net);
      for (const c of [...bare, ...after]) {
        expect(netOf(c.a)).toBe(c.net);
        expect(netOf(c.b)).toBe(c.net);
        expect(c.a).not.toEqual(c.b);
        // A zone end names the pad of its piece a pad-joining tool uses: the net's, not the other end.
        expect(board.pads[padOf(c.a)].net).toBe(c.net);
        expect(board.pads[padOf(c.b)].net).toBe(c.net);
        expect(padOf(c.a)).not.toBe(padOf(c.b));
      }
      // Net by net, shortest first: the order the tools list them in.
      for (let i = 1; i < bare.length; i++) {
        const [p, q] = [bare[i - 1], bare[i]];
        expect(p.net < q.net || (p.net === q.net && p.length <= q.length)).toBe(true);
      }
      expect(openConnections(board, copper, { zones: false }).length).toBeGreaterThanOrEqual(after.length);
      if (name === 'kicad-demo_flat_hierarchy') expect(bare.some((c) => 'zone' in c.a || 'zone' in c.b)).toBe(true);
    });
  }
});
