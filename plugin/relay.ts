// The relay: a session kept alive in the background for agents that have a shell but no MCP
// client. It listens on a per-user Unix socket (directory 0700, socket 0600) and speaks the
// JSON-lines protocol; every request and answer is appended to the session's transcript file.
// A `{"relay": "stop"}` line ends it; a `{"relay": "tools"}` line is answered with the session's
// tool list (MCP's tools/list) and the connection closed.

import { appendFileSync, chmodSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toolList } from '../engine/session/schemas.ts';
import type { Session } from '../engine/session/session.ts';
import { JsonLinesServer } from './jsonl.ts';
import { UsageError } from './design-files.ts';

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The per-user directory for relay sockets and transcripts. */
export function relayDir(): string {
  const uid = process.getuid?.() ?? 0;
  const base = process.env.XDG_RUNTIME_DIR && existsSync(process.env.XDG_RUNTIME_DIR) ? process.env.XDG_RUNTIME_DIR : tmpdir();
  return join(base, `tracemaker-${uid}`);
}

export function relayPaths(name: string): { dir: string; socket: string; transcript: string } {
  if (!NAME.test(name)) throw new UsageError('relay NAME: letters, digits, - and _ only (at most 64)');
  const dir = relayDir();
  return { dir, socket: join(dir, `${name}.sock`), transcript: join(dir, `${name}.transcript.jsonl`) };
}

/** Serves a session on the relay socket until a stop line arrives; resolves when closed. */
export function serveRelay(name: string, session: Session): Promise<void> {
  const { dir, socket, transcript } = relayPaths(name);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  if (existsSync(socket)) rmSync(socket);
  return new Promise((resolve, reject) => {
    const server = createServer((conn) => {
      const lines = new JsonLinesServer(
        async (tool, args) => session.dispatch(tool, args),
        (line) => void conn.write(line),
        (request, answer) => appendFileSync(transcript, JSON.stringify({ request, answer }) + '\n', { mode: 0o600 }),
      );
      conn.on('data', (chunk: Buffer) => {
        const control = chunk.toString('utf8').trim();
        if (control === '{"relay":"tools"}') {
          conn.end(JSON.stringify({ tools: toolList() }) + '\n');
          return;
        }
        if (control === '{"relay":"stop"}') {
          conn.end('{"stopped":true}\n');
          server.close();
          rmSync(socket, { force: true });
          resolve();
          return;
        }
        void lines.push(chunk);
      });
      conn.on('end', () => void lines.end().then(() => conn.end()));
      conn.on('error', () => undefined);
    });
    server.on('error', reject);
    // The socket is created 0600 by the umask, and chmod makes sure.
    const old = process.umask(0o177);
    server.listen(socket, () => {
      process.umask(old);
      chmodSync(socket, 0o600);
    });
  });
}

/** Sends one line to a relay and returns the first answer line. */
export function relaySend(name: string, line: string): Promise<string> {
  const { socket } = relayPaths(name);
  if (!existsSync(socket)) throw new UsageError('no relay of that name is running (tracemaker relay start NAME BOARD --out FILE)');
  return new Promise((resolve, reject) => {
    const c = createConnection(socket);
    let buf = '';
    c.on('data', (d: Buffer) => {
      buf += d.toString('utf8');
      const nl = buf.indexOf('\n');
      if (nl >= 0) {
        resolve(buf.slice(0, nl));
        c.end();
      }
    });
    c.on('error', reject);
    c.write(line + '\n');
  });
}
