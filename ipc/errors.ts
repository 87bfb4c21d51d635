// The typed errors of the IPC client. Every non-OK status from KiCad becomes a KicadApiError carrying
// KiCad's own message; transport and protocol failures have their own classes so callers can tell
// "KiCad said no" from "we could not talk to KiCad".

/** KiCad's ApiStatusCode names (kiapi.common.ApiStatusCode), without AS_OK. */
export type ApiStatus = 'AS_UNKNOWN' | 'AS_TIMEOUT' | 'AS_BAD_REQUEST' | 'AS_NOT_READY' | 'AS_UNHANDLED' | 'AS_TOKEN_MISMATCH' | 'AS_BUSY' | 'AS_UNIMPLEMENTED';

/** Base class: anything that went wrong between this client and KiCad. */
export class KicadIpcError extends Error {
  override name = 'KicadIpcError';
}

/** KiCad answered with a status other than AS_OK. `kicadMessage` is KiCad's text, unchanged. */
export class KicadApiError extends KicadIpcError {
  override name = 'KicadApiError';
  constructor(
    readonly code: ApiStatus,
    readonly kicadMessage: string,
    readonly command: string,
  ) {
    super(`${command}: ${code}${kicadMessage ? `: ${kicadMessage}` : ''}`);
  }
}

/** KiCad stayed busy (a modal dialog, an interactive tool) for longer than the client was willing to wait. */
export class KicadBusyError extends KicadApiError {
  override name = 'KicadBusyError';
  constructor(
    code: ApiStatus,
    kicadMessage: string,
    command: string,
    readonly waitedMs: number,
  ) {
    super(code, kicadMessage, command);
    this.message = 'KiCad is busy: close the dialog or finish the current action';
  }
}

/** No reply within the timeout; the connection was dropped because a REQ socket cannot be un-stuck. */
export class KicadTimeoutError extends KicadIpcError {
  override name = 'KicadTimeoutError';
  constructor(
    readonly command: string,
    readonly timeoutMs: number,
  ) {
    super(`${command}: no reply from KiCad within ${timeoutMs} ms`);
  }
}

/** The KiCad that answered is older than the first version whose API this client speaks (9.0). */
export class KicadVersionError extends KicadIpcError {
  override name = 'KicadVersionError';
  constructor(readonly version: string) {
    super(`KiCad ${version} is too old: TraceMaker needs KiCad 9.0 or later (its IPC API and plugins came with 9.0). Update KiCad, then try again`);
  }
}

/** The socket could not be opened or was closed under a pending request. */
export class KicadConnectionError extends KicadIpcError {
  override name = 'KicadConnectionError';
  constructor(
    message: string,
    readonly path: string,
    readonly errno?: string,
  ) {
    super(message);
  }
}

/** The peer broke the protocol: a bad SP handshake or frame, an undecodable reply, or replies out of step. */
export class KicadProtocolError extends KicadIpcError {
  override name = 'KicadProtocolError';
}

/** One item of a CreateItems/UpdateItems call was refused; KiCad's per-item status and message. */
export class KicadItemError extends KicadIpcError {
  override name = 'KicadItemError';
  constructor(
    readonly command: string,
    readonly index: number,
    readonly code: string,
    readonly kicadMessage: string,
  ) {
    super(`${command}: item ${index}: ${code}${kicadMessage ? `: ${kicadMessage}` : ''}`);
  }
}

/**
 * The caller asked for a net the board does not have. KiCad would silently create it, so the client
 * refuses before sending. `nets` are the unknown names.
 */
export class UnknownNetError extends KicadIpcError {
  override name = 'UnknownNetError';
  constructor(readonly nets: string[]) {
    super(`unknown net${nets.length > 1 ? 's' : ''}: ${nets.map((n) => JSON.stringify(n)).join(', ')}`);
  }
}
