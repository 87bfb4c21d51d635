import { describe, expect, it } from 'vitest';
import { parseArgs, TOOL_NAMES, TOOL_DESCRIPTIONS, inputSchema, toolList, type ToolName } from '../../../engine/session/schemas.ts';
import { ToolError } from '../../../engine/session/errors.ts';
import { fnv1a64 } from '../../../engine/session/digest.ts';
import { MAX_CALL_WORK } from '../../../engine/session/limits.ts';

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
    expect(err('route', { netz: ['A'] })).toMatchObject({
      code: 'bad_argument',
      message: expect.stringMatching(/^route: unknown key "netz" \(allowed: nets, work, variants, seed, hints, options, verify, commit/),
    });
    expect(err('route', { hints: { regions: [{ box_mm: [0, 0, 1, 1], extra: 1 }] } }).message).toBe(
      'route: unknown key "hints.regions[0].extra" (allowed: box_mm, nets, mode, layers)',
    );
    expect(err('route', { hints: { priority: { A: 1 }, order: [] } }).message).toBe(
      'route: unknown key "hints.order" (allowed: first_nets, priority, layers, regions)',
    );
    expect(err('route', { options: { via_in_pads: true } }).message).toBe(
      'route: unknown key "options.via_in_pads" (allowed: soft_zones, via_in_pad, vias_off_pads, escape_plan)',
    );
    expect(err('route', { hints: { layers: [{ layer: 'B.Cu', cost: 2, nett: 'x' }] } }).message).toBe(
      'route: unknown key "hints.layers[0].nett" (allowed: net, layer, cost)',
    );
    expect(err('board_info', { x: 1 }).message).toBe('board_info: unknown key "x" (board_info takes no arguments)');
    expect(err('route', { verify: 'strict' }).message).toBe('route: key "verify": not an allowed value (allowed: "refuse", "report", "off")');
    expect(err('route', { hints: { regions: [{ box_mm: [0, 0, 1, 1], mode: 'shun' }] } }).message).toBe(
      'route: key "hints.regions[0].mode": not an allowed value (allowed: "avoid", "prefer")',
    );
    expect(err('open_connections', { limit: 'ten' }).message).toMatch(/^open_connections: key "limit": /);
    expect(err('open_connections', { limit: 513 }).message).toMatch(/^open_connections: key "limit": /);
    expect(err('route', { work: MAX_CALL_WORK + 1 }).message).toMatch(/^route: key "work"/);
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
    expect(TOOL_NAMES).toEqual([
      'board_info',
      'open_connections',
      'route',
      'rip_net',
      'check',
      'stuck_report',
      'inspect_pad',
      'inspect_net',
      'render',
      'history',
      'undo',
      'restore',
      'save',
      'place_via',
      'route_connection',
      'rip',
      'reserve',
    ]);
  });

  it('lists every tool once, in table order, with the description and schema the table gives', () => {
    const list = toolList();
    expect(list.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const t of list) expect(t).toEqual({ name: t.name, description: TOOL_DESCRIPTIONS[t.name], inputSchema: inputSchema(t.name) });
  });

  // Every key an agent can send says what it does, and an optional one its default.
  it('describes every key of the tools, nested ones too, and says the default of every optional one', () => {
    const tools: readonly ToolName[] = TOOL_NAMES;
    const undescribed: string[] = [];
    const noDefault: string[] = [];
    const walk = (s: Record<string, any>, at: string) => {
      for (const sub of s.anyOf ?? []) walk(sub, at);
      if (s.items && !Array.isArray(s.items)) walk(s.items, `${at}[]`);
      if (s.additionalProperties && typeof s.additionalProperties === 'object') walk(s.additionalProperties, `${at}{}`);
      for (const [k, p] of Object.entries<Record<string, any>>(s.properties ?? {})) {
        const where = at ? `${at}.${k}` : k;
        if (!p.description) undescribed.push(where);
        else if (!(s.required ?? []).includes(k) && !/default/i.test(p.description) && p.default === undefined) noDefault.push(where);
        walk(p, where);
      }
    };
    for (const t of tools) walk(inputSchema(t), t);
    expect(undescribed).toEqual([]);
    expect(noDefault).toEqual([]);
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
