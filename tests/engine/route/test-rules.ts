// The rules of the synthetic router worlds in these tests: one class, 0.2 mm clearance,
// 0.25 mm tracks (0.15 mm at least), 0.6/0.3 mm vias.
import type { HostRules } from '../../../engine/route/host.ts';

export const TEST_RULES: HostRules = {
  clearance: () => 200_000,
  trackWidth: () => 250_000,
  minTrackWidth: () => 150_000,
  via: () => ({ diameter: 600_000, drill: 300_000 }),
  edgeClearance: () => 300_000,
  holeClearance: () => 200_000,
  holeToHole: 250_000,
  className: () => 'Default',
};
