// Where a route of a few nets spends its time on one board, the set-up pieces apart: the router's
// host (hostFromDesign), the checker's index, the grid, the obstacle maps, and the whole route —
// first without a cache, then twice with one RouteCache (the second call is what a warm host pays),
// then other nets with that cache (a second "route selected" on an unchanged board).
// Usage: npx tsx bench/route-setup.ts [board.kicad_pcb] [net,net,…] [other,net,…]
import { readDesignFiles } from '../plugin/design-files.ts';
import { loadDesign } from '../engine/kicad/load.ts';
import { sessionHost, routeVariant, RouteCache } from '../engine/route/index.ts';
import { Checker } from '../engine/route/core/checker.ts';
import { gridFor } from '../engine/route/core/grid.ts';
import { buildObstacleMap } from '../engine/route/core/obstacle-map.ts';
import { chooseStep } from '../engine/route/plan/grid-step.ts';
import { profileOf } from '../engine/route/plan/profiles.ts';

const file = process.argv[2] ?? '../shared/bench/boards/C/kicad-demo_video/kicad-demo_video.kicad_pcb';
const names = (process.argv[3] ?? '/buspci.sch/EQ0,/buspci.sch/EQ1,/buspci.sch/EQ2').split(',');
const others = (process.argv[4] ?? '/buspci.sch/EA1,/buspci.sch/EA2,/buspci.sch/EA3').split(',');
const ms = (t0: number) => Math.round(performance.now() - t0);

let t = performance.now();
const design = loadDesign(readDesignFiles(file));
const out: Record<string, unknown> = { load_ms: ms(t) };
const nets = names.map((n) => design.board.netByName.get(n)!);
const req = { nets, work: 2_000_000, seed: 1 };

t = performance.now();
const host = sessionHost(design, req);
out.host_ms = ms(t);
t = performance.now();
new Checker(host, true);
out.checker_ms = ms(t);
const profiles = [...new Set(nets.map((n) => host.rules.className(n)))].map((k) =>
  profileOf(
    host,
    nets.find((n) => host.rules.className(n) === k)!,
    k,
  ),
);
const step = chooseStep(profiles, host.pads);
t = performance.now();
const grid = gridFor(host, step);
out.grid_ms = ms(t);
t = performance.now();
for (const p of profiles) buildObstacleMap(host, grid, p, { softZones: true, viaInPad: false, viasOffPads: false });
out.maps_ms = ms(t);
out.profiles = profiles.length;

t = performance.now();
const plain = JSON.stringify(routeVariant(design, req, 0));
out.route_uncached_ms = ms(t);
const cache = new RouteCache();
t = performance.now();
const first = JSON.stringify(routeVariant(design, req, 0, cache));
out.route_cached_first_ms = ms(t);
t = performance.now();
const second = JSON.stringify(routeVariant(design, req, 0, cache));
out.route_cached_second_ms = ms(t);
out.same_bytes = plain === first && first === second;
const otherReq = { nets: others.map((n) => design.board.netByName.get(n)!), work: 2_000_000, seed: 1 };
t = performance.now();
const other = JSON.stringify(routeVariant(design, otherReq, 0, cache));
out.route_cached_other_nets_ms = ms(t);
out.other_same_bytes = other === JSON.stringify(routeVariant(design, otherReq, 0));
process.stdout.write(JSON.stringify(out) + '\n');
