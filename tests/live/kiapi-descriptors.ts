// Reads the protobuf schema compiled into KiCad's libkiapi: the serialized FileDescriptorProtos that
// protoc embeds. It is the ground truth our hand-written .proto subset is checked against, per version.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import descriptor from 'protobufjs/ext/descriptor.js';
import { KICAD10_ROOT, type Kicad } from '../support/kicad.ts';

/** The libkiapi of this KiCad (Debian's file name carries the version: libkiapi.so.9.0.8, …10.0.7). */
export function libkiapi(kicad: Kicad): string {
  return join(kicad.rooted ? KICAD10_ROOT : '/', 'usr', 'lib', 'x86_64-linux-gnu', `libkiapi.so.${kicad.version}`);
}

// FileDescriptorProto's top-level fields and their wire types: the greedy scan stops at the first tag
// that is not one of these, which is where the embedded array ends.
const FILE_FIELDS = new Map<number, number>([
  [1, 2],
  [2, 2],
  [3, 2],
  [4, 2],
  [5, 2],
  [6, 2],
  [7, 2],
  [8, 2],
  [9, 2],
  [10, 0],
  [11, 0],
  [12, 2],
  [14, 0],
]);

function readVarint(buf: Buffer, at: number): [number, number] {
  let value = 0;
  let scale = 1;
  for (let i = at; i < buf.length && i < at + 10; i++) {
    value += (buf[i] & 0x7f) * scale;
    scale *= 128;
    if ((buf[i] & 0x80) === 0) return [value, i + 1];
  }
  return [-1, at];
}

function descriptorLength(buf: Buffer, start: number): number {
  let at = start;
  for (;;) {
    const [tag, afterTag] = readVarint(buf, at);
    if (tag <= 0 || FILE_FIELDS.get(tag >>> 3) !== (tag & 7)) return at - start;
    if ((tag & 7) === 0) {
      const [, next] = readVarint(buf, afterTag);
      at = next;
    } else {
      const [len, next] = readVarint(buf, afterTag);
      if (len < 0 || next + len > buf.length) return at - start;
      at = next + len;
    }
  }
}

/** Every KiCad API file descriptor in the library, decoded, keyed by file name (e.g. "board/board_types.proto"). */
export function readKiapiDescriptors(path: string): Map<string, descriptor.IFileDescriptorProto> {
  const buf = readFileSync(path);
  const found = new Map<string, descriptor.IFileDescriptorProto>();
  const nameRe = /^(common|board|schematic)\/[a-z_/]+\.proto$/;
  for (let at = buf.indexOf(0x0a); at >= 0 && at < buf.length - 2; at = buf.indexOf(0x0a, at + 1)) {
    const len = buf[at + 1];
    if (len < 8 || len > 64) continue;
    const name = buf.subarray(at + 2, at + 2 + len).toString('latin1');
    if (!nameRe.test(name) || found.has(name)) continue;
    const size = descriptorLength(buf, at);
    try {
      const file = descriptor.FileDescriptorProto.decode(buf.subarray(at, at + size)) as descriptor.IFileDescriptorProto;
      if ((file.package ?? '').startsWith('kiapi.')) found.set(name, file);
    } catch {
      // A file name that happens to sit in a string table, not in a descriptor: keep scanning.
    }
  }
  return found;
}

/** Every message and enum of the library by full name without the leading dot, nested ones included. */
export function kiapiSchema(path: string): {
  messages: Map<string, descriptor.IDescriptorProto>;
  enums: Map<string, descriptor.IEnumDescriptorProto>;
} {
  const messages = new Map<string, descriptor.IDescriptorProto>();
  const enums = new Map<string, descriptor.IEnumDescriptorProto>();
  const walk = (prefix: string, types: descriptor.IDescriptorProto[], enumTypes: descriptor.IEnumDescriptorProto[]) => {
    for (const e of enumTypes) enums.set(`${prefix}.${e.name}`, e);
    for (const t of types) {
      messages.set(`${prefix}.${t.name}`, t);
      walk(`${prefix}.${t.name}`, t.nestedType ?? [], t.enumType ?? []);
    }
  };
  for (const file of readKiapiDescriptors(path).values()) walk(file.package ?? '', file.messageType ?? [], file.enumType ?? []);
  return { messages, enums };
}
