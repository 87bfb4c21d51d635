// The protobuf schema as one protobufjs Root, built from the embedded .proto texts (no file I/O at run
// time), and the few primitives on top of it: encode/decode by full name, Any packing, int64 → number.
import protobuf from 'protobufjs';
import { COMMON_TYPES_PROTO, ENVELOPE_PROTO, GOOGLE_PROTO, PROJECT_PROTO } from './proto/common.ts';
import { COMMON_COMMANDS_PROTO } from './proto/commands.ts';
import { BOARD_COMMANDS_PROTO, BOARD_PROTO, BOARD_TYPES_PROTO } from './proto/board.ts';
import { KicadProtocolError } from './errors.ts';

const TYPE_URL_PREFIX = 'type.googleapis.com/';

/** A decoded message: field names as in KiCad's .proto (snake_case), int64 fields as numbers or Longs. */
// protobufjs messages are dynamic; this alias marks the one place where the wire shape is untyped.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the one untyped wire shape, above
export type Wire = Record<string, any>;

function buildRoot(): protobuf.Root {
  const root = new protobuf.Root();
  const texts = [GOOGLE_PROTO, ENVELOPE_PROTO, COMMON_TYPES_PROTO, PROJECT_PROTO, COMMON_COMMANDS_PROTO, BOARD_PROTO, BOARD_TYPES_PROTO, BOARD_COMMANDS_PROTO];
  for (const text of texts) protobuf.parse(text, root, { keepCase: true });
  root.resolveAll();
  return root;
}

let root: protobuf.Root | undefined;

/** The whole schema, built on first use: parsing the .proto texts is a noticeable share of the
 *  CLI's start-up, and most commands never speak to KiCad. */
export function schema(): protobuf.Root {
  return (root ??= buildRoot());
}

const types = new Map<string, protobuf.Type>();

/** The message type of a full name such as "kiapi.board.types.Track"; throws on a name not in our subset. */
export function messageType(fullName: string): protobuf.Type {
  let type = types.get(fullName);
  if (!type) {
    type = schema().lookupType(fullName);
    types.set(fullName, type);
  }
  return type;
}

/** Encodes a plain object (snake_case keys, enum values by name or number) as the named message. */
export function encode(fullName: string, value: Wire): Uint8Array {
  const type = messageType(fullName);
  // fromObject maps enum names to numbers; verify then catches what it cannot convert (wrong types).
  const message = type.fromObject(value);
  const invalid = type.verify(message);
  if (invalid) throw new TypeError(`invalid ${fullName}: ${invalid}`);
  return type.encode(message).finish();
}

/** Decodes bytes as the named message; malformed bytes are a protocol error, not a crash. */
export function decode(fullName: string, bytes: Uint8Array): Wire {
  try {
    return messageType(fullName).decode(bytes) as unknown as Wire;
  } catch (err) {
    throw new KicadProtocolError(`could not decode ${fullName}: ${(err as Error).message}`);
  }
}

export function typeUrl(fullName: string): string {
  return TYPE_URL_PREFIX + fullName;
}

/** The full message name an Any carries, e.g. "kiapi.board.types.Via". */
export function anyTypeName(any: Wire): string {
  const url: string = any.type_url ?? '';
  return url.slice(url.lastIndexOf('/') + 1);
}

export function packAny(fullName: string, value: Wire): Wire {
  return { type_url: typeUrl(fullName), value: encode(fullName, value) };
}

export function unpackAny(any: Wire): Wire {
  return decode(anyTypeName(any), any.value ?? new Uint8Array());
}

/** The numeric value of an enum member, by enum full name and member name. */
export function enumValue(enumName: string, member: string): number {
  const value = enumValueOrUndefined(enumName, member);
  if (value === undefined) throw new TypeError(`${member} is not a member of ${enumName}`);
  return value;
}

export function enumValueOrUndefined(enumName: string, member: string): number | undefined {
  const values = schema().lookupEnum(enumName).values;
  return Object.hasOwn(values, member) ? values[member] : undefined;
}

/** The member name of an enum value, or undefined for a value our schema does not know. */
export function enumName(enumName: string, value: number): string | undefined {
  return schema().lookupEnum(enumName).valuesById[value];
}

/**
 * An int64 from the wire as a JS number. Nanometre coordinates fit easily; a value past 2^53 would be
 * silently rounded, so it is refused instead. protobufjs hands int64 over as a Long {low, high} (or a
 * number or decimal string when built from a plain object).
 */
export function int64(value: unknown): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number') return value;
  if (typeof value === 'object' && 'high' in value && 'low' in value) {
    const { high, low, unsigned } = value as { high: number; low: number; unsigned?: boolean };
    // |value| < 2^53 exactly when the high word is within ±2^21 (signed) or below 2^21 (unsigned).
    const hi = unsigned ? high >>> 0 : high;
    if (hi >= -0x200000 && hi < 0x200000) return hi * 0x100000000 + (low >>> 0);
    throw new KicadProtocolError(`int64 value ${String(value)} does not fit a JS number exactly`);
  }
  const text = String(value);
  const big = BigInt(text);
  if (big > BigInt(Number.MAX_SAFE_INTEGER) || big < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new KicadProtocolError(`int64 value ${text} does not fit a JS number exactly`);
  }
  return Number(big);
}
