// What the launcher's exit status and message look like for each outcome: normal work exits 0, a
// fault 1; a message is a short first line and details; sentences end in one full stop.
import { describe, expect, it } from 'vitest';
import { exitCode, message, seconds, sentence } from '../../../plugin/kicad-host/outcomes.ts';

describe('outcomes', () => {
  it('exits 0 for the outcomes of normal work and 1 for faults', () => {
    for (const code of ['routed', 'cancelled', 'nothing_selected', 'no_nets', 'already_routed', 'not_routed', 'refused', 'busy', 'route_running', 'checked'])
      expect(exitCode(code), code).toBe(0);
    for (const code of ['failed', 'no_kicad', 'kicad_too_old', 'no_board', 'something_new']) expect(exitCode(code), code).toBe(1);
  });

  it('puts the short line first and drops empty details', () => {
    expect(message('Routed 3 nets: 8 tracks, 0 vias', '', false, 'One Ctrl+Z takes it back.')).toBe(
      'Routed 3 nets: 8 tracks, 0 vias\nOne Ctrl+Z takes it back.',
    );
  });

  it('ends a sentence in one full stop, never "…." or ".)."', () => {
    expect(sentence('the budget ran out…')).toBe('The budget ran out.');
    expect(sentence('it was blocked (by /GND.)')).toBe('It was blocked (by /GND).');
    expect(sentence('done.')).toBe('Done.');
  });

  it('speaks seconds, not work units', () => {
    expect([seconds(420), seconds(12_400), seconds(185_000)]).toEqual(['0.4 s', '12 s', '3 min 5 s']);
  });
});
