import { readDesignFiles } from '../plugin/design-files.ts';
import { loadDesign } from '../engine/kicad/load.ts';
import { routeDesign } from '../engine/route/index.ts';
import { checkAdded } from '../engine/drc/drc.ts';
const d = loadDesign(readDesignFiles(process.argv[2]));
const r = routeDesign(d);
for (const v of checkAdded(d, r.tracks, r.vias, [1,2,3,4,5,6]).violations) if (v.skew || v.length) console.log(v.type, v.description);
for (const n of r.nets) if (n.name.includes('DP')) console.log(n.name, n.routed, n.length, n.vias.length);
