// What a session's step tools ask of the router about one via: the via the rules give a net
// between two layers (its class's size, its type by the layers it joins), and what the router's
// exact check finds against it, so a placed via is judged as the router judges its own.

import { Checker, type CheckerHit } from '../core/checker.ts';
import type { RouterHost } from '../core/host.ts';
import { viaFor, type ViaSpan } from '../core/via-span.ts';
import { profileOf } from './profiles.ts';

/** The via of `net`'s class joining layers `la` and `lb` (stack indices), as the router lays it. */
export function classVia(host: RouterHost, net: number, la: number, lb: number): ViaSpan {
  return viaFor(profileOf(host, net, host.rules.className(net)), la, lb, host.layerCount);
}

/** The first thing the router's exact check (soft zones) finds too close to `span` at (x, y) nm. */
export function viaHit(host: RouterHost, net: number, x: number, y: number, span: ViaSpan): CheckerHit | undefined {
  return new Checker(host, true).via(net, x, y, span);
}
