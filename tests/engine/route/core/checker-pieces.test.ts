// A long track checked in pieces (Checker.trackClear, as the search off the grid checks its
// lines) gets the verdict the whole segment gets: among posts of another net, lines at many
// angles, some clear and some not, and lines that pass a post at the clearance to the nm.
import { describe, expect, it } from 'vitest';
import { circle } from '../../../../engine/geom/index.ts';
import { Checker } from '../../../../engine/route/core/checker.ts';
import type { HostObstacle } from '../../../../engine/route/core/host.ts';
import { squareHost } from '../test-rules.ts';

const MM = 1_000_000;
const WIDTH = 250_000;
/** Posts of net 2, 0.3 mm across, on a 1.7 mm pitch, every other row shifted by half of it. */
const POST = 150_000;
const posts: HostObstacle[] = [];
for (let i = 0; i < 12; i++)
  for (let j = 0; j < 12; j++) {
    const x = 2 * MM + j * 1_700_000 + (i % 2) * 850_000;
    posts.push({ kind: 'track', shape: circle(x, 2 * MM + i * 1_700_000, POST), layers: 1, net: 2, clearance: 0 });
  }
const host = squareHost(25 * MM, { netNames: ['', 'A', 'B'], pads: [], obstacles: posts });

describe('a long track checked in pieces', () => {
  it('is clear exactly where the whole segment is, at every angle', () => {
    const checker = new Checker(host, false);
    const verdicts = { clear: 0, blocked: 0 };
    // Fans of lines from three points across the field, a degree and a half apart.
    for (const [ox, oy] of [
      [1 * MM, 1 * MM],
      [12 * MM, 1.3 * MM],
      [3.2 * MM, 12.1 * MM],
    ])
      for (let k = 0; k < 240; k++) {
        const a = (k * Math.PI) / 120;
        const bx = Math.round(ox + 20 * MM * Math.cos(a) * (0.3 + (k % 7) / 10));
        const by = Math.round(oy + 20 * MM * Math.sin(a) * (0.3 + (k % 7) / 10));
        const whole = checker.track(1, 0, ox, oy, bx, by, WIDTH) === undefined;
        expect(checker.trackClear(1, 0, ox, oy, bx, by, WIDTH), `(${ox}, ${oy}) → (${bx}, ${by})`).toBe(whole);
        verdicts[whole ? 'clear' : 'blocked']++;
      }
    expect(verdicts.clear).toBeGreaterThan(20);
    expect(verdicts.blocked).toBeGreaterThan(20);
  });

  it('keeps the clearance to the nm beside a post far along a long line', () => {
    const checker = new Checker(host, false);
    // Along the row of posts at y = 2 mm + 1.7 mm, just above them: the line's edge sits the
    // clearance (0.2 mm) from every post's edge, then 1 nm closer.
    const y = 2 * MM + 1_700_000 + POST + 200_000 + WIDTH / 2;
    expect(checker.trackClear(1, 0, 1 * MM, y, 23 * MM, y, WIDTH)).toBe(true);
    expect(checker.trackClear(1, 0, 1 * MM, y - 1, 23 * MM, y - 1, WIDTH)).toBe(false);
    expect(checker.track(1, 0, 1 * MM, y - 1, 23 * MM, y - 1, WIDTH)).toBeDefined();
  });
});
