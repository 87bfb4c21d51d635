// One KiCad API call end to end: wrap the command in ApiRequest, send it, unwrap ApiResponse, turn a
// status into a typed error, retry while KiCad is busy, and notice replies that are out of step (9.0.8
// answers twice after a malformed request) and bring the stream back in step before going on.
import { KicadApiError, KicadBusyError, KicadProtocolError, type ApiStatus } from './errors.ts';
import { anyTypeName, decode, encode, enumName, packAny, type Wire } from './messages.ts';
import type { Transport } from './transport.ts';

export interface RpcOptions {
  clientName: string;
  /** KiCad's instance token; empty means "learn it from the first reply". */
  token: string;
  timeoutMs: number;
  /** How long AS_BUSY / AS_NOT_READY are retried before KicadBusyError. */
  busyTimeoutMs: number;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
}

export interface CallOptions {
  timeoutMs?: number;
  /** Safe to send again after a reply went astray (reads). Edits are not: they may have run already. */
  idempotent?: boolean;
  /** false: report AS_BUSY / AS_NOT_READY at once instead of waiting them out. */
  retryBusy?: boolean;
}

// The stale second reply 9.0.8 sends after an unparseable request; we never send a request without a
// message, so receiving this means the reply belongs to someone else's request.
const STRAY_REPLY = 'request has no inner message';
const PING = 'kiapi.common.commands.Ping';
const GET_VERSION = 'kiapi.common.commands.GetVersion';
const EMPTY = 'google.protobuf.Empty';
const VERSION_RESPONSE = 'kiapi.common.commands.GetVersionResponse';
const RESYNC_ROUNDS = 8;
/** How often a read is sent again after its reply went astray. */
const MAX_REPEATS = 2;

class OutOfStep extends Error {}

export class Rpc {
  #transport: Transport;
  #options: RpcOptions;
  #token: string;

  constructor(transport: Transport, options: RpcOptions) {
    this.#transport = transport;
    this.#options = options;
    this.#token = options.token;
  }

  /** The instance token KiCad reported (or the one given), '' before the first reply. */
  get token(): string {
    return this.#token;
  }

  /**
   * Calls `command` (full message name) with `request` and returns the decoded `responseType`.
   * Throws KicadApiError for a non-OK status, KicadBusyError when KiCad stays busy.
   */
  async call(command: string, request: Wire, responseType: string, opts: CallOptions = {}): Promise<Wire> {
    const started = this.#options.now();
    let delay = 50;
    let resyncs = 0;
    for (;;) {
      try {
        return await this.#once(command, request, responseType, opts);
      } catch (err) {
        if (err instanceof OutOfStep) {
          await this.resync();
          resyncs++;
          if (opts.idempotent && resyncs <= MAX_REPEATS) continue;
          throw new KicadProtocolError(
            `${shortName(command)}: KiCad's reply was out of step (${err.message}); the stream is back in step, ` +
              (opts.idempotent ? 'but went out of step again' : 'but the command may or may not have run'),
          );
        }
        if (!(err instanceof KicadApiError) || (err.code !== 'AS_BUSY' && err.code !== 'AS_NOT_READY')) throw err;
        if (opts.retryBusy === false) throw err;
        const waited = this.#options.now() - started;
        if (waited >= this.#options.busyTimeoutMs) {
          throw new KicadBusyError(err.code, err.kicadMessage, err.command, waited);
        }
        await this.#options.sleep(Math.min(delay, this.#options.busyTimeoutMs - waited));
        delay = Math.min(delay * 2, 1000);
      }
    }
  }

  /**
   * Alternates Ping and GetVersion until two replies in a row have the types asked for: the excess reply
   * has then been drained. Throws if KiCad does not come back in step within a few rounds.
   */
  async resync(): Promise<void> {
    let inStep = 0;
    for (let round = 0; round < RESYNC_ROUNDS * 2; round++) {
      const [command, expected] = round % 2 === 0 ? [PING, EMPTY] : [GET_VERSION, VERSION_RESPONSE];
      try {
        await this.#once(command, {}, expected, {});
        inStep++;
        if (inStep === 2) return;
      } catch (err) {
        if (!(err instanceof OutOfStep) && !(err instanceof KicadApiError)) throw err;
        inStep = 0;
      }
    }
    throw new KicadProtocolError("KiCad's API replies stay out of step (a KiCad 9.0.8 bug after a malformed request); restart KiCad");
  }

  async #once(command: string, request: Wire, responseType: string, opts: CallOptions): Promise<Wire> {
    const body = encode('kiapi.common.ApiRequest', {
      header: { kicad_token: this.#token, client_name: this.#options.clientName },
      message: packAny(command, request),
    });
    const name = shortName(command);
    const replyBytes = await this.#transport.request(body, opts.timeoutMs ?? this.#options.timeoutMs, name);
    const reply = decode('kiapi.common.ApiResponse', replyBytes);
    const replyToken: string = reply.header?.kicad_token ?? '';
    if (!this.#token && replyToken) this.#token = replyToken;
    const status = enumName('kiapi.common.ApiStatusCode', reply.status?.status ?? 0) ?? 'AS_UNKNOWN';
    const message: string = reply.status?.error_message ?? '';
    if (status !== 'AS_OK') {
      if (status === 'AS_BAD_REQUEST' && message === STRAY_REPLY) throw new OutOfStep(`${status} "${message}"`);
      throw new KicadApiError(status as ApiStatus, message, name);
    }
    const got = reply.message ? anyTypeName(reply.message) : '';
    if (got !== responseType) throw new OutOfStep(`expected ${responseType}, got ${got || 'no message'}`);
    return decode(responseType, reply.message.value ?? new Uint8Array());
  }
}

function shortName(fullName: string): string {
  return fullName.slice(fullName.lastIndexOf('.') + 1);
}
