// The step-level tools (place_via, route_connection, rip, reserve) through the built command:
// JSON lines, MCP and the relay reach them with the same arguments and answers, and the saved
// board holds exactly the copper they kept; the relay hands a PNG picture back as JSON.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchBoards } from '../support/bench.ts';
import { calls, jsonLines, tracemaker } from './cli.ts';

const board = benchBoards().find((b) => b.name === 'Blink-Eras_AVR_ISP_Pogo')!;
const MID_Y = 103.7336;
const STEPS: [string, object][] = [
  ['reserve', { net: 'N$4', via_at_mm: [146, MID_Y] }],
  ['place_via', { net: 'N$5', at_mm: [149.5, MID_Y] }],
  ['route_connection', { net: 'N$3', a: 'JP1.6', b: 'JP2.6', waypoints: [{ at_mm: [149.77 + 1, MID_Y + 2], layer: 'B.Cu' }] }],
  ['route', { nets: ['N$4', 'N$5'] }],
  ['rip', { box_mm: [139.7, MID_Y - 1, 157.3, MID_Y + 1], nets: ['N$5'] }],
  ['route', { nets: ['N$5'] }],
  ['save', {}],
];

function tmp(): string {
  return join(mkdtempSync(join(tmpdir(), 'tm-')), 'o.kicad_pcb');
}

describe('step-level tools through every transport', () => {
  it('JSON lines, MCP and the relay give the same answers and save the same board', () => {
    // JSON lines.
    const out1 = tmp();
    const r = tracemaker(['session', board.bare, '--out', out1, '--jsonl'], calls(STEPS));
    expect(r.code, r.stderr).toBe(0);
    const viaJsonl = jsonLines(r.stdout);
    expect(viaJsonl.map((a) => a.error?.message ?? 'ok')).toEqual(STEPS.map(() => 'ok'));
    // A via site: the net's via (0.6 mm across here) round the point.
    expect(viaJsonl[0].reserved).toEqual([{ net: 'N$4', box_mm: [145.7, 103.4336, 146.3, 104.0336] }]);
    expect(viaJsonl[1]).toMatchObject({ committed: true, via: { net: 'N$5' } });
    expect(viaJsonl[2]).toMatchObject({ committed: true, routed: true });
    expect(viaJsonl[3]).toMatchObject({ committed: true });
    expect(viaJsonl[4].nets).toEqual(['N$5']);
    expect(viaJsonl[5]).toMatchObject({ committed: true, open_after: 0 });

    // MCP: the same calls as tools/call, after initialize.
    const out2 = tmp();
    const init = {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    const msgs = [
      init,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      ...STEPS.map(([name, args], i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name, arguments: args } })),
    ];
    const m = tracemaker(['session', board.bare, '--out', out2], msgs.map((x) => JSON.stringify(x)).join('\n') + '\n');
    expect(m.code, m.stderr).toBe(0);
    const byId = new Map(jsonLines(m.stdout).map((x) => [x.id, x]));
    const viaMcp = STEPS.map((_, i) => JSON.parse(byId.get(i + 1).result.content[0].text));
    expect(viaMcp.slice(0, -1)).toEqual(viaJsonl.slice(0, -1));

    // The relay.
    const out3 = tmp();
    const name = `step-${process.pid}`;
    expect(tracemaker(['relay', 'start', name, board.bare, '--out', out3]).code).toBe(0);
    try {
      const viaRelay = STEPS.map(([tool, args]) => JSON.parse(tracemaker(['relay', 'call', name, tool, JSON.stringify(args)]).stdout));
      expect(viaRelay.slice(0, -1)).toEqual(viaJsonl.slice(0, -1));
      // A picture through the relay: PNG bytes in the JSON answer.
      const png = JSON.parse(tracemaker(['relay', 'call', name, 'render', '{"format":"png","net":"N$3"}']).stdout);
      expect(png.mime).toBe('image/png');
      expect(Buffer.from(png.png_base64, 'base64').subarray(1, 4).toString('latin1')).toBe('PNG');
    } finally {
      tracemaker(['relay', 'stop', name]);
    }
    const saved = readFileSync(out1, 'utf8');
    expect(saved).not.toBe(readFileSync(board.bare, 'utf8'));
    expect(readFileSync(out2, 'utf8')).toBe(saved);
    expect(readFileSync(out3, 'utf8')).toBe(saved);
  }, 120_000);
});
