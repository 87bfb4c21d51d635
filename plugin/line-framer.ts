// Newline framing for the stdio and socket transports, as a pure class fed bytes: it yields
// each complete line, and a line longer than the cap is reported once and skipped up to its
// newline without being buffered, so a huge or endless line cannot exhaust memory.

export type Frame = { kind: 'line'; text: string } | { kind: 'too_long'; bytes: number };

export class LineFramer {
  #parts: Uint8Array[] = [];
  #size = 0;
  /** Bytes of the current over-long line seen so far; -1 when not skipping. */
  #skipping = -1;
  readonly #decoder = new TextDecoder('utf-8', { fatal: false });

  constructor(readonly maxBytes: number) {}

  /** Feeds a chunk; returns the frames it completed, in order. */
  push(chunk: Uint8Array): Frame[] {
    const out: Frame[] = [];
    let start = 0;
    while (start <= chunk.length) {
      const nl = chunk.indexOf(10, start);
      const end = nl < 0 ? chunk.length : nl;
      this.#take(chunk.subarray(start, end));
      if (nl < 0) break;
      out.push(this.#finish());
      start = nl + 1;
    }
    return out;
  }

  /** At end of input: the last line if it had no newline (empty lines are dropped by callers). */
  end(): Frame[] {
    if (this.#size === 0 && this.#skipping < 0) return [];
    return [this.#finish()];
  }

  #take(part: Uint8Array): void {
    if (part.length === 0) return;
    if (this.#skipping >= 0) {
      this.#skipping += part.length;
      return;
    }
    if (this.#size + part.length > this.maxBytes) {
      this.#skipping = this.#size + part.length;
      this.#parts = [];
      this.#size = 0;
      return;
    }
    // Copy: the caller may reuse its buffer.
    this.#parts.push(part.slice());
    this.#size += part.length;
  }

  #finish(): Frame {
    if (this.#skipping >= 0) {
      const bytes = this.#skipping;
      this.#skipping = -1;
      return { kind: 'too_long', bytes };
    }
    const buf = new Uint8Array(this.#size);
    let o = 0;
    for (const p of this.#parts) {
      buf.set(p, o);
      o += p.length;
    }
    this.#parts = [];
    this.#size = 0;
    let text = this.#decoder.decode(buf);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    return { kind: 'line', text };
  }
}
