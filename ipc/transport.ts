// The REQ side of NNG req/rep on one stream: connect, handshake, one request in flight, replies matched
// by id, a timeout per request, and a fresh connection after any failure (a REQ socket whose reply never
// came cannot be reused). The stream itself comes from a connector, so tests can pass their own.
import { createConnection } from 'node:net';
import type { Duplex } from 'node:stream';
import { KicadConnectionError, KicadProtocolError, KicadTimeoutError } from './errors.ts';
import { encodeFrame, encodeHandshake, PROTOCOL_REP, PROTOCOL_REQ, RequestIds, SpDecoder } from './framing.ts';

/** Opens a byte stream to a Unix socket path or a Windows named pipe (`\\.\pipe\…`). */
export type Connector = (path: string) => Duplex;

export const netConnector: Connector = (path) => createConnection({ path });

interface Pending {
  id: number;
  resolve(payload: Uint8Array): void;
  reject(err: Error): void;
}

interface Link {
  stream: Duplex;
  decoder: SpDecoder;
  ready: Promise<void>;
}

export class Transport {
  readonly path: string;
  #connector: Connector;
  #ids = new RequestIds();
  #link: Link | null = null;
  #pending: Pending | null = null;
  #tail: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(path: string, connector: Connector = netConnector) {
    this.path = path;
    this.#connector = connector;
  }

  /**
   * Sends one request body (the protobuf bytes, without id) and resolves with the reply body. Calls are
   * queued so that only one is on the wire; `label` names the command in errors.
   */
  request(payload: Uint8Array, timeoutMs: number, label: string): Promise<Uint8Array> {
    const run = this.#tail.then(() => this.#exchange(payload, timeoutMs, label));
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /** Opens the connection now (it is otherwise opened by the first request). */
  async open(timeoutMs: number): Promise<void> {
    await this.#withTimeout(this.#connect().ready, timeoutMs, 'connect');
  }

  close(): void {
    this.#closed = true;
    this.#drop(new KicadConnectionError('connection closed by the client', this.path));
  }

  async #exchange(payload: Uint8Array, timeoutMs: number, label: string): Promise<Uint8Array> {
    if (this.#closed) throw new KicadConnectionError('the client is closed', this.path);
    const started = Date.now();
    const link = this.#connect();
    await this.#withTimeout(link.ready, timeoutMs, label);
    const remaining = Math.max(1, timeoutMs - (Date.now() - started));
    const id = this.#ids.next();
    const reply = new Promise<Uint8Array>((resolve, reject) => {
      this.#pending = { id, resolve, reject };
    });
    link.stream.write(encodeFrame(id, payload));
    return this.#withTimeout(reply, remaining, label, timeoutMs);
  }

  #withTimeout<T>(promise: Promise<T>, ms: number, label: string, reportedMs = ms): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        const err = new KicadTimeoutError(label, reportedMs);
        this.#drop(err);
        reject(err);
      }, ms);
      promise.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(err);
        },
      );
    });
  }

  #connect(): Link {
    if (this.#link) return this.#link;
    const stream = this.#connector(this.path);
    const decoder = new SpDecoder(PROTOCOL_REP);
    let handshake!: { resolve(): void; reject(err: Error): void };
    const ready = new Promise<void>((resolve, reject) => {
      handshake = { resolve, reject };
    });
    // A rejection nobody awaits yet (the link failed between requests) must not crash the process.
    ready.catch(() => undefined);
    const link: Link = { stream, decoder, ready };
    this.#link = link;
    let failure: Error | null = null;
    const fail = (err: Error) => {
      failure ??= err;
      handshake.reject(failure);
      if (this.#link === link) this.#drop(failure);
    };
    stream.on('data', (chunk: Buffer) => {
      let events;
      try {
        events = decoder.feed(chunk);
      } catch (err) {
        fail(err as Error);
        return;
      }
      for (const event of events) {
        if (event.kind === 'handshake') handshake.resolve();
        else this.#deliver(event.id, event.payload);
      }
    });
    stream.on('error', (err: NodeJS.ErrnoException) => fail(connectionError(err, this.path)));
    stream.on('close', () => fail(new KicadConnectionError(`KiCad closed the API connection at ${this.path}`, this.path)));
    stream.write(encodeHandshake(PROTOCOL_REQ));
    return link;
  }

  // A reply with another id answers a request that already timed out; it is dropped.
  #deliver(id: number, payload: Uint8Array): void {
    const pending = this.#pending;
    if (!pending || pending.id !== id) return;
    this.#pending = null;
    pending.resolve(payload);
  }

  #drop(err: Error): void {
    const link = this.#link;
    this.#link = null;
    const pending = this.#pending;
    this.#pending = null;
    pending?.reject(err);
    link?.stream.destroy();
  }
}

function connectionError(err: NodeJS.ErrnoException, path: string): Error {
  if (err instanceof KicadProtocolError) return err;
  switch (err.code) {
    case 'ENOENT':
      return new KicadConnectionError(
        `no KiCad API socket at ${path}: KiCad's API server is off or KiCad is not running. In KiCad 9.0 or later, ` +
          'turn on Preferences → Plugins → "Enable KiCad API", then restart the PCB editor with the board open',
        path,
        err.code,
      );
    case 'ECONNREFUSED':
      return new KicadConnectionError(
        `nothing listens on ${path}: the socket file is left over from a KiCad that exited. Start KiCad's PCB editor ` +
          '(with Preferences → Plugins → "Enable KiCad API" on) and open the board',
        path,
        err.code,
      );
    default:
      return new KicadConnectionError(`cannot talk to KiCad at ${path}: ${err.message}`, path, err.code);
  }
}
