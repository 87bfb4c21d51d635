// SP framing as a pure class: handshakes checked both ways, frames split or coalesced anywhere, ids.
import { describe, expect, it } from 'vitest';
import { KicadProtocolError } from '../../ipc/errors.ts';
import { encodeFrame, encodeHandshake, isRequestId, PROTOCOL_REP, PROTOCOL_REQ, RequestIds, SpDecoder, type SpEvent } from '../../ipc/framing.ts';

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

function messages(events: SpEvent[]): { id: number; payload: number[] }[] {
  return events.flatMap((e) => (e.kind === 'message' ? [{ id: e.id, payload: [...e.payload] }] : []));
}

describe('SP handshake', () => {
  it('is NUL "SP" NUL, the protocol id big-endian, two zeros', () => {
    expect([...encodeHandshake(PROTOCOL_REQ)]).toEqual([0x00, 0x53, 0x50, 0x00, 0x00, 0x30, 0x00, 0x00]);
    expect([...encodeHandshake(PROTOCOL_REP)]).toEqual([0x00, 0x53, 0x50, 0x00, 0x00, 0x31, 0x00, 0x00]);
  });

  it('accepts the expected peer protocol, even a byte at a time', () => {
    const d = new SpDecoder(PROTOCOL_REP);
    const hs = encodeHandshake(PROTOCOL_REP);
    for (let i = 0; i < 7; i++) expect(d.feed(hs.subarray(i, i + 1))).toEqual([]);
    expect(d.feed(hs.subarray(7))).toEqual([{ kind: 'handshake' }]);
    expect(d.handshakeDone).toBe(true);
  });

  it('refuses a peer speaking another protocol (a REQ talking to a REQ)', () => {
    const d = new SpDecoder(PROTOCOL_REP);
    expect(() => d.feed(encodeHandshake(PROTOCOL_REQ))).toThrow(KicadProtocolError);
    expect(() => new SpDecoder(PROTOCOL_REP).feed(new TextEncoder().encode('HTTP/1.1'))).toThrow(/bad SP handshake/);
  });
});

describe('SP frames', () => {
  const a = encodeFrame(0x80000001, Uint8Array.of(1, 2, 3));
  const b = encodeFrame(0x80000002, new Uint8Array(0));
  const c = encodeFrame(0xfffffffe, new Uint8Array(300).fill(7));
  const stream = concat(encodeHandshake(PROTOCOL_REP), a, b, c);
  const expected = [
    { id: 0x80000001, payload: [1, 2, 3] },
    { id: 0x80000002, payload: [] },
    { id: 0xfffffffe, payload: new Array(300).fill(7) },
  ];

  it('writes 0x01, a u64 big-endian length, the id and the payload', () => {
    expect([...a]).toEqual([0x01, 0, 0, 0, 0, 0, 0, 0, 7, 0x80, 0, 0, 1, 1, 2, 3]);
  });

  it('decodes coalesced frames from one chunk', () => {
    expect(messages(new SpDecoder(PROTOCOL_REP).feed(stream))).toEqual(expected);
  });

  it('decodes frames split at every possible point', () => {
    for (let cut = 1; cut < stream.length; cut++) {
      const d = new SpDecoder(PROTOCOL_REP);
      const events = [...d.feed(stream.subarray(0, cut)), ...d.feed(stream.subarray(cut))];
      expect(messages(events)).toEqual(expected);
    }
  });

  it('decodes a stream fed one byte at a time', () => {
    const d = new SpDecoder(PROTOCOL_REP);
    const events: SpEvent[] = [];
    for (let i = 0; i < stream.length; i++) events.push(...d.feed(stream.subarray(i, i + 1)));
    expect(events[0]).toEqual({ kind: 'handshake' });
    expect(messages(events)).toEqual(expected);
  });

  it('refuses a frame of another type or an impossible length', () => {
    const hs = encodeHandshake(PROTOCOL_REP);
    const badType = Uint8Array.from(a);
    badType[0] = 0x02;
    expect(() => new SpDecoder(PROTOCOL_REP).feed(concat(hs, badType))).toThrow(/frame type/);
    const tooShort = Uint8Array.of(0x01, 0, 0, 0, 0, 0, 0, 0, 3, 0x80, 0, 0);
    expect(() => new SpDecoder(PROTOCOL_REP).feed(concat(hs, tooShort))).toThrow(/frame length 3/);
    const huge = Uint8Array.of(0x01, 0xff, 0, 0, 0, 0, 0, 0, 0);
    expect(() => new SpDecoder(PROTOCOL_REP).feed(concat(hs, huge))).toThrow(/frame length/);
  });

  it('refuses to write an id without the high bit', () => {
    expect(() => encodeFrame(1, new Uint8Array(0))).toThrow(RangeError);
  });
});

describe('request ids', () => {
  it('count up with the high bit set and wrap without losing it', () => {
    const ids = new RequestIds(0x7ffffffe);
    expect([ids.next(), ids.next(), ids.next()]).toEqual([0xfffffffe, 0xffffffff, 0x80000001]);
    expect([0xfffffffe, 0xffffffff, 0x80000001].every(isRequestId)).toBe(true);
    expect(new RequestIds().next()).toBe(0x80000001);
    expect(isRequestId(0x7fffffff)).toBe(false);
  });
});
