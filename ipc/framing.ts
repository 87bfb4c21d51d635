// NNG's SP wire protocol over a byte stream, as pure code: the 8-byte handshake, `0x01` + u64 length
// framing, and the 4-byte request id that starts a REQ/REP body. No sockets here; feed it bytes.
import { KicadProtocolError } from './errors.ts';

export const PROTOCOL_REQ = 0x0030;
export const PROTOCOL_REP = 0x0031;
const HANDSHAKE_LENGTH = 8;
const FRAME_HEADER_LENGTH = 9;
const MESSAGE_TYPE = 0x01;
const ID_LENGTH = 4;
/** A reply bigger than this is taken for garbage rather than allocated (a board as text is a few MB). */
export const MAX_FRAME_BYTES = 512 * 1024 * 1024;

/** The 8 bytes each side sends first: NUL "SP" NUL, the protocol id (u16 BE), two reserved zeros. */
export function encodeHandshake(protocol: number): Uint8Array {
  return Uint8Array.of(0x00, 0x53, 0x50, 0x00, protocol >> 8, protocol & 0xff, 0x00, 0x00);
}

/** One frame: type byte, u64 BE length, then the request id (high bit set) and the payload. */
export function encodeFrame(id: number, payload: Uint8Array): Uint8Array {
  if (!isRequestId(id)) throw new RangeError(`request id 0x${id.toString(16)} must have its high bit set`);
  const frame = new Uint8Array(FRAME_HEADER_LENGTH + ID_LENGTH + payload.length);
  const view = new DataView(frame.buffer);
  frame[0] = MESSAGE_TYPE;
  view.setBigUint64(1, BigInt(ID_LENGTH + payload.length));
  view.setUint32(FRAME_HEADER_LENGTH, id);
  frame.set(payload, FRAME_HEADER_LENGTH + ID_LENGTH);
  return frame;
}

export function isRequestId(id: number): boolean {
  return Number.isInteger(id) && id >= 0x80000000 && id <= 0xffffffff;
}

/** Request ids: a 31-bit counter (1 … 2^31-1, then wrapping to 1) with the high bit set, as REQ requires. */
export class RequestIds {
  #next: number;
  constructor(start = 1) {
    this.#next = start & 0x7fffffff || 1;
  }
  next(): number {
    const id = (this.#next | 0x80000000) >>> 0;
    this.#next = this.#next === 0x7fffffff ? 1 : this.#next + 1;
    return id;
  }
}

export type SpEvent = { kind: 'handshake' } | { kind: 'message'; id: number; payload: Uint8Array };

/**
 * Decodes what the peer sends: its handshake (checked against the expected protocol), then frames.
 * Chunks may split or coalesce frames anywhere; events come out in order once complete.
 */
export class SpDecoder {
  #expected: Uint8Array;
  #handshakeDone = false;
  #chunks: Uint8Array[] = [];
  #buffered = 0;

  constructor(peerProtocol: number) {
    this.#expected = encodeHandshake(peerProtocol);
  }

  get handshakeDone(): boolean {
    return this.#handshakeDone;
  }

  feed(chunk: Uint8Array): SpEvent[] {
    if (chunk.length > 0) {
      this.#chunks.push(chunk);
      this.#buffered += chunk.length;
    }
    const events: SpEvent[] = [];
    for (;;) {
      if (!this.#handshakeDone) {
        if (this.#buffered < HANDSHAKE_LENGTH) return events;
        const got = this.#take(HANDSHAKE_LENGTH);
        if (!got.every((b, i) => b === this.#expected[i])) {
          throw new KicadProtocolError(`bad SP handshake: expected ${hex(this.#expected)}, got ${hex(got)} (is this a KiCad API socket?)`);
        }
        this.#handshakeDone = true;
        events.push({ kind: 'handshake' });
        continue;
      }
      if (this.#buffered < FRAME_HEADER_LENGTH) return events;
      const header = this.#peek(FRAME_HEADER_LENGTH);
      if (header[0] !== MESSAGE_TYPE) throw new KicadProtocolError(`bad SP frame type 0x${header[0].toString(16)}`);
      const length = new DataView(header.buffer, header.byteOffset, header.length).getBigUint64(1);
      if (length < ID_LENGTH || length > BigInt(MAX_FRAME_BYTES)) {
        throw new KicadProtocolError(`bad SP frame length ${length}`);
      }
      if (this.#buffered < FRAME_HEADER_LENGTH + Number(length)) return events;
      this.#take(FRAME_HEADER_LENGTH);
      const body = this.#take(Number(length));
      const id = new DataView(body.buffer, body.byteOffset, body.length).getUint32(0);
      events.push({ kind: 'message', id, payload: body.subarray(ID_LENGTH) });
    }
  }

  #peek(n: number): Uint8Array {
    const first = this.#chunks[0];
    if (first.length >= n) return first.subarray(0, n);
    this.#merge();
    return this.#chunks[0].subarray(0, n);
  }

  #take(n: number): Uint8Array {
    const first = this.#chunks[0];
    if (first.length < n) this.#merge();
    const merged = this.#chunks[0];
    const out = merged.subarray(0, n);
    if (merged.length === n) this.#chunks.shift();
    else this.#chunks[0] = merged.subarray(n);
    this.#buffered -= n;
    return out;
  }

  // Joining only when a frame straddles chunks keeps a large reply that arrives in many chunks to one copy.
  #merge(): void {
    const all = new Uint8Array(this.#buffered);
    let at = 0;
    for (const c of this.#chunks) {
      all.set(c, at);
      at += c.length;
    }
    this.#chunks = [all];
  }
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
}
