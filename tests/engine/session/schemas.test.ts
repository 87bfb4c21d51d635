import { describe, expect, it } from 'vitest';
import { parseArgs, TOOL_NAMES, TOOL_DESCRIPTIONS, inputSchema } from '../../../engine/session/schemas.ts';
import { ToolError } from '../../../engine/session/errors.ts';
import { fnv1a64 } from '../../../engine/session/digest.ts';
import { MAX_WORK } from '../../../engine/session/limits.ts';

function err(tool: Parameters<typeof parseArgs>[0], args: unknown): ToolError {
  try {
    parseArgs(tool, args);
  } catch (e) {
    return e as ToolError;
  }
  throw new Error('expected an error');
}

describe('tool schemas', () => {
  it('name the tool and the key on an unknown key, a wrong type or a value out of range', () => {
    expect(err('route', { netz: ['A'] })).toMatchObject({ code: 'bad_argument', message: 'route: unknown key "netz"' });
    expect(err('route', { hints: { regions: [{ box_mm: [0, 0, 1, 1], extra: 1 }] } }).message).toBe('route: unknown key "hints.regions[0].extra"');
    expect(err('open_connections', { limit: 'ten' }).message).toMatch(/^open_connections: key "limit": /);
    expect(err('open_connections', { limit: 513 }).message).toMatch(/^open_connections: key "limit": /);
    expect(err('route', { work: MAX_WORK + 1 }).message).toMatch(/^route: key "work"/);
    expect(err('route', { variants: 9 }).message).toMatch(/^route: key "variants"/);
    expect(err('route', { nets: Array.from({ length: 65 }, (_, i) => `N${i}`) }).message).toMatch(/^route: key "nets"/);
    expect(err('restore', {}).message).toMatch(/^restore: key "state"/);
    expect(err('inspect_pad', { pad: 'U1.1', radius_mm: -1 }).message).toMatch(/^inspect_pad: key "radius_mm"/);
    expect(err('history', [1]).message).toMatch(/^history: arguments: /);
    expect(parseArgs('route', undefined)).toEqual({});
  });

  it('gives every tool a JSON Schema that rejects unknown keys, and fixed descriptions', () => {
    for (const t of TOOL_NAMES) {
      const s = inputSchema(t);
      expect(s.type).toBe('object');
      expect(s.additionalProperties).toBe(false);
      expect(TOOL_DESCRIPTIONS[t].length).toBeGreaterThan(10);
    }
    expect(TOOL_NAMES).toEqual(['board_info', 'open_connections', 'route', 'rip_net', 'check', 'stuck_report', 'inspect_pad', 'inspect_net', 'render', 'history', 'undo', 'restore', 'save']);
  });
});

describe('FNV-1a 64', () => {
  // Reference values of the published FNV-1a 64 test vectors.
  it('matches the reference vectors and a BigInt implementation', () => {
    expect(fnv1a64('')).toBe('cbf29ce484222325');
    expect(fnv1a64('a')).toBe('af63dc4c8601ec8c');
    expect(fnv1a64('foobar')).toBe('85944171f73967e8');
    const ref = (t: string) => {
      let h = 0xcbf29ce484222325n;
      for (const b of new TextEncoder().encode(t)) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
      return h.toString(16).padStart(16, '0');
    };
    for (const t of ['Ω net «x»', 'T 1 0 250000 1,2 - 3,4\nV 2 0-1 600000/300000 through 5,6', 'x'.repeat(1000)]) expect(fnv1a64(t)).toBe(ref(t));
    expect(fnv1a64('b', fnv1a64('a'))).toBe(fnv1a64('ab'));
  });
});
