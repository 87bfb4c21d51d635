// The caps every call keeps (ARCHITECTURE rule 7), in one place so schemas, tools and
// transports agree.

import { DEFAULT_WORK_CAP, MAX_VARIANTS } from '../route/index.ts';

/** Open connections listed per call. */
export const MAX_LISTED = 512;
/** Nets per route call. */
export const MAX_ROUTE_NETS = 64;
export { MAX_VARIANTS };
/** Work per call, all its variants together (search expansions, flood cells and set-up sites):
 *  every variant at the largest default budget. */
export const MAX_CALL_WORK = MAX_VARIANTS * DEFAULT_WORK_CAP;
/** Bytes per request line, both transports. */
export const MAX_LINE_BYTES = 1 << 20;
/** Longest name (net, pad, layer) an argument may carry. */
export const MAX_NAME = 1024;
/** Largest coordinate an argument may give, mm (the engine's ±1.5e9 nm guard). */
export const MAX_COORD_MM = 1500;
