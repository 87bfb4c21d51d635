// Version detection: a GetVersion reply → the API generation the client speaks, including KiCad's
// development builds (<previous>.99) and a KiCad newer than any the client was checked against.
import { describe, expect, it } from 'vitest';
import { apiFeatures, apiGeneration, isNewerThanChecked } from '../../ipc/index.ts';

const v = (major: number, minor: number) => ({ major, minor });

describe('apiGeneration', () => {
  it('refuses what came before the IPC API (9.0)', () => {
    expect(apiGeneration(v(8, 0))).toBeNull();
    expect(apiGeneration(v(7, 99))).toBeNull();
    expect(apiGeneration(v(0, 0))).toBeNull();
  });

  it('takes a release by its major and a development build (.99) as the release it leads to', () => {
    expect(apiGeneration(v(8, 99))).toBe(9);
    expect(apiGeneration(v(9, 0))).toBe(9);
    expect(apiGeneration(v(9, 1))).toBe(9);
    expect(apiGeneration(v(9, 99))).toBe(10);
    expect(apiGeneration(v(10, 0))).toBe(10);
    expect(apiGeneration(v(10, 99))).toBe(11);
    expect(apiGeneration(v(11, 0))).toBe(11);
  });

  it('speaks to a KiCad newer than 11 as to 11, and says so', () => {
    expect(apiGeneration(v(11, 99))).toBe(11);
    expect(apiGeneration(v(12, 0))).toBe(11);
    expect(isNewerThanChecked(v(11, 0))).toBe(false);
    expect(isNewerThanChecked(v(10, 99))).toBe(false);
    expect(isNewerThanChecked(v(11, 99))).toBe(true);
    expect(isNewerThanChecked(v(12, 0))).toBe(true);
  });
});

describe('apiFeatures', () => {
  it('uses 10’s additions from 10 on and the board design rules and documents opened by path from 11 on', () => {
    const none = { blindAndBuriedApart: false, itemsById: false, itemsByNet: false, boardDesignRules: false, openDocument: false };
    expect(apiFeatures(9)).toEqual(none);
    expect(apiFeatures(10)).toEqual({ ...none, blindAndBuriedApart: true, itemsById: true, itemsByNet: true });
    expect(apiFeatures(11)).toEqual({ blindAndBuriedApart: true, itemsById: true, itemsByNet: true, boardDesignRules: true, openDocument: true });
  });
});
