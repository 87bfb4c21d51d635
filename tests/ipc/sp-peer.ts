// An in-process stand-in for KiCad's API server: the REP side of NNG req/rep on a real Unix socket in a
// temp dir. Each test scripts the replies; the peer records what it received.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeFrame, encodeHandshake, PROTOCOL_REP, PROTOCOL_REQ, SpDecoder } from '../../ipc/framing.ts';
import { anyTypeName, decode, encode, packAny, type Wire } from '../../ipc/messages.ts';

export interface Received {
  id: number;
  /** Full message name of the command, e.g. "kiapi.common.commands.Ping". */
  command: string;
  message: Wire;
  clientName: string;
  token: string;
}

/** A reply: a typed message (status OK) or an error status; `null` sends nothing. */
export type Reply = { type: string; value?: Wire } | { status: string; error: string } | null;

export type Handler = (req: Received) => Reply | Promise<Reply>;

export interface Peer {
  path: string;
  received: Received[];
  connections: number;
  /** Sends raw bytes on the most recent connection (for malformed-frame tests). */
  sendRaw(bytes: Uint8Array): void;
  /** Closes every client connection, as a KiCad that quits does, but keeps listening. */
  dropConnections(): void;
  close(): Promise<void>;
}

export const TOKEN = 'f00dfeed-0000-4000-8000-000000000001';

export function replyBytes(reply: Exclude<Reply, null>): Uint8Array {
  if ('status' in reply) {
    return encode('kiapi.common.ApiResponse', {
      header: { kicad_token: TOKEN },
      status: { status: reply.status, error_message: reply.error },
    });
  }
  return encode('kiapi.common.ApiResponse', {
    header: { kicad_token: TOKEN },
    status: { status: 'AS_OK' },
    message: packAny(reply.type, reply.value ?? {}),
  });
}

export async function startPeer(handler: Handler, opts: { handshake?: Uint8Array } = {}): Promise<Peer> {
  const dir = mkdtempSync(join(tmpdir(), 'sp-peer-'));
  const path = join(dir, 'api.sock');
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  let last: Socket | null = null;
  const server: Server = createServer((socket) => {
    peer.connections++;
    sockets.add(socket);
    last = socket;
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.write(opts.handshake ?? encodeHandshake(PROTOCOL_REP));
    const decoder = new SpDecoder(PROTOCOL_REQ);
    // Requests are answered in arrival order, as KiCad's single GUI thread does.
    let queue = Promise.resolve();
    socket.on('data', (chunk: Buffer) => {
      for (const event of decoder.feed(chunk)) {
        if (event.kind !== 'message') continue;
        const request = decode('kiapi.common.ApiRequest', event.payload);
        const command = anyTypeName(request.message);
        const req: Received = {
          id: event.id,
          command,
          message: decode(command, request.message.value),
          clientName: request.header?.client_name ?? '',
          token: request.header?.kicad_token ?? '',
        };
        received.push(req);
        queue = queue.then(async () => {
          const reply = await handler(req);
          if (reply && !socket.destroyed) socket.write(encodeFrame(req.id, replyBytes(reply)));
        });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  const peer: Peer = {
    path,
    received,
    connections: 0,
    sendRaw(bytes) {
      last?.write(bytes);
    },
    dropConnections() {
      for (const s of sockets) s.destroy();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return peer;
}

/** Answers the commands every client sends with KiCad's usual replies; `overrides` replace or add handlers. */
export function kicadLike(overrides: Record<string, Handler> = {}): Handler {
  const C = 'kiapi.common.commands.';
  const board = { type: 'DOCTYPE_PCB', board_filename: 'demo.kicad_pcb', project: { name: 'demo', path: '/boards' } };
  const defaults: Record<string, Handler> = {
    [`${C}Ping`]: () => ({ type: 'google.protobuf.Empty' }),
    [`${C}GetVersion`]: () => ({ type: `${C}GetVersionResponse`, value: { version: { major: 9, patch: 8, full_version: '9.0.8+1' } } }),
    [`${C}EndCommit`]: () => ({ status: 'AS_BAD_REQUEST', error: 'the client tracemaker does not has a commit in progress' }),
    [`${C}GetOpenDocuments`]: () => ({ type: `${C}GetOpenDocumentsResponse`, value: { documents: [board] } }),
    ['kiapi.board.commands.GetNets']: () => ({
      type: 'kiapi.board.commands.NetsResponse',
      value: { nets: [{ name: '' }, { code: { value: 1 }, name: 'GND' }, { code: { value: 2 }, name: 'VCC' }] },
    }),
  };
  return (req) => {
    const handler = overrides[req.command] ?? defaults[req.command];
    if (!handler) return { status: 'AS_UNHANDLED', error: `no handler available for request of type ${req.command}` };
    return handler(req);
  };
}
