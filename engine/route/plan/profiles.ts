// A net class's profile as the router's searches see it: the track width per layer, the via, the
// clearance, from the rules asked of the class's first net; and a profile widened to a caller's
// track width, never below the rules' minimum.

import type { RouterHost } from '../core/host.ts';
import type { Profile } from '../core/profile.ts';

export function profileOf(host: RouterHost, net: number, key: string): Profile {
  const v = host.rules.via(net);
  const width: number[] = [];
  for (let l = 0; l < host.layerCount; l++) width.push(host.rules.trackWidth(net, l));
  const micro = host.rules.microVia?.(net);
  return {
    key,
    net,
    width,
    viaDiameter: v.diameter,
    viaDrill: v.drill,
    clearance: host.rules.clearance(net, 0, 0),
    blindBuried: host.rules.blindBuried === true,
    ...(micro ? { micro } : {}),
  };
}

/** One profile per net class, made from the class's first net of `nets` (ascending codes), and
 *  each net's profile index; `adjust` changes each profile as it is made. */
export function classProfiles(
  host: RouterHost,
  nets: readonly number[],
  adjust?: (p: Profile) => Profile,
): { profiles: Profile[]; netProfile: Map<number, number> } {
  const profileIndex = new Map<string, number>();
  const profiles: Profile[] = [];
  const netProfile = new Map<number, number>();
  for (const n of nets) {
    const key = host.rules.className(n);
    let k = profileIndex.get(key);
    if (k === undefined) {
      k = profiles.length;
      profileIndex.set(key, k);
      const p = profileOf(host, n, key);
      profiles.push(adjust ? adjust(p) : p);
    }
    netProfile.set(n, k);
  }
  return { profiles, netProfile };
}

/** A profile at a caller's track width: never below the rules' minimum on a layer. */
export function widened(host: RouterHost, p: Profile, width: number): Profile {
  const w = p.width.map((_, l) => Math.max(width, host.rules.minTrackWidth(p.net, l)));
  return { ...p, key: `${p.key}/w${w.join(',')}`, width: w };
}
