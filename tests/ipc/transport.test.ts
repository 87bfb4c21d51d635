// The REQ transport over a real Unix socket against an in-process SP peer: ids, one request in flight,
// stray replies, timeouts and reconnecting, handshake and connection failures.
import { afterEach, describe, expect, it } from 'vitest';
import { KicadConnectionError, KicadProtocolError, KicadTimeoutError } from '../../ipc/errors.ts';
import { encodeFrame, encodeHandshake, PROTOCOL_REQ } from '../../ipc/framing.ts';
import { encode } from '../../ipc/messages.ts';
import { Transport } from '../../ipc/transport.ts';
import { kicadLike, replyBytes, startPeer, type Peer } from './sp-peer.ts';

const PING = encode('kiapi.common.ApiRequest', {
  message: { type_url: 'type.googleapis.com/kiapi.common.commands.Ping', value: new Uint8Array(0) },
});

let peer: Peer | null = null;
let transport: Transport | null = null;
afterEach(async () => {
  transport?.close();
  await peer?.close();
  peer = null;
  transport = null;
});

describe('Transport', () => {
  it('sends requests with increasing high-bit ids and returns the matching reply body', async () => {
    peer = await startPeer(kicadLike());
    transport = new Transport(peer.path);
    const first = await transport.request(PING, 1000, 'Ping');
    await transport.request(PING, 1000, 'Ping');
    expect(first).toEqual(replyBytes({ type: 'google.protobuf.Empty' }));
    expect(peer.received.map((r) => r.id)).toEqual([0x80000001, 0x80000002]);
    expect(peer.connections).toBe(1);
  });

  it('keeps one request in flight: the second goes out only after the first is answered', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let seenWhenFirstAnswered = -1;
    peer = await startPeer(async (req) => {
      if (req.id === 0x80000001) {
        await gate;
        seenWhenFirstAnswered = peer!.received.length;
      }
      return { type: 'google.protobuf.Empty' };
    });
    transport = new Transport(peer.path);
    const a = transport.request(PING, 1000, 'Ping');
    const b = transport.request(PING, 1000, 'Ping');
    await new Promise<void>((resolve) => setImmediate(resolve));
    release();
    await Promise.all([a, b]);
    expect(seenWhenFirstAnswered).toBe(1);
    expect(peer.received).toHaveLength(2);
  });

  it('drops a reply whose id is not the pending one', async () => {
    peer = await startPeer(() => {
      // A late answer to some earlier request arrives first.
      peer!.sendRaw(encodeFrame(0x80000abc, replyBytes({ status: 'AS_BUSY', error: 'stale' })));
      return { type: 'google.protobuf.Empty' };
    });
    transport = new Transport(peer.path);
    expect(await transport.request(PING, 1000, 'Ping')).toEqual(replyBytes({ type: 'google.protobuf.Empty' }));
  });

  it('times out, drops the connection, and reconnects for the next request', async () => {
    let answer = false;
    peer = await startPeer(() => (answer ? { type: 'google.protobuf.Empty' } : null));
    transport = new Transport(peer.path);
    const err = await transport.request(PING, 50, 'Ping').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KicadTimeoutError);
    expect((err as Error).message).toBe('Ping: no reply from KiCad within 50 ms');
    answer = true;
    await transport.request(PING, 1000, 'Ping');
    expect(peer.connections).toBe(2);
  });

  it('rejects the pending request when KiCad closes the connection, then reconnects', async () => {
    let first = true;
    peer = await startPeer(() => {
      if (!first) return { type: 'google.protobuf.Empty' };
      first = false;
      peer!.dropConnections();
      return null;
    });
    transport = new Transport(peer.path);
    const err = await transport.request(PING, 2000, 'Ping').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KicadConnectionError);
    expect((err as Error).message).toMatch(/closed the API connection/);
    await transport.request(PING, 1000, 'Ping');
    expect(peer.connections).toBe(2);
  });

  it('refuses a peer whose handshake is not REP', async () => {
    peer = await startPeer(kicadLike(), { handshake: encodeHandshake(PROTOCOL_REQ) });
    transport = new Transport(peer.path);
    await expect(transport.request(PING, 1000, 'Ping')).rejects.toThrow(KicadProtocolError);
  });

  it('explains a missing socket', async () => {
    transport = new Transport('/nonexistent/kicad/api.sock');
    const err = await transport.request(PING, 1000, 'Ping').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KicadConnectionError);
    expect((err as KicadConnectionError).errno).toBe('ENOENT');
    expect((err as Error).message).toMatch(/Enable KiCad API/);
  });
});
