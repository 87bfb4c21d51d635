// Our hand-written .proto subset must equal KiCad 9.0.8's schema: every message, field (name, number,
// type, repeated, oneof) and enum value we declare is looked up in the descriptors compiled into the
// installed libkiapi. Items the client sends whole (tracks, arcs, vias, padstacks) must also be complete.
import { existsSync } from 'node:fs';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { schema } from '../../ipc/messages.ts';
import { kiapiSchema, LIBKIAPI } from './kiapi-descriptors.ts';

const skip = process.env.TRACEMAKER_SKIP_LIVE === '1';

// FieldDescriptorProto.Type numbers → proto type names.
const SCALAR: Record<number, string> = {
  1: 'double', 2: 'float', 3: 'int64', 4: 'uint64', 5: 'int32', 6: 'fixed64', 7: 'fixed32', 8: 'bool',
  9: 'string', 12: 'bytes', 13: 'uint32', 15: 'sfixed32', 16: 'sfixed64', 17: 'sint32', 18: 'sint64',
};

const SENT_WHOLE = [
  'kiapi.board.types.Track', 'kiapi.board.types.Arc', 'kiapi.board.types.Via', 'kiapi.board.types.PadStack',
  'kiapi.board.types.PadStackLayer', 'kiapi.board.types.DrillProperties', 'kiapi.board.types.PadStackOuterLayer',
  'kiapi.board.types.BoardGraphicShape', 'kiapi.common.types.GraphicShape', 'kiapi.common.ApiRequest',
  'kiapi.common.ApiRequestHeader', 'kiapi.common.commands.EndCommit', 'kiapi.common.commands.CreateItems',
];

function ours(): { messages: protobuf.Type[]; enums: protobuf.Enum[] } {
  const messages: protobuf.Type[] = [];
  const enums: protobuf.Enum[] = [];
  const walk = (ns: protobuf.NamespaceBase) => {
    for (const child of ns.nestedArray) {
      if (child instanceof protobuf.Type) messages.push(child);
      if (child instanceof protobuf.Enum) enums.push(child);
      if (child instanceof protobuf.Namespace || child instanceof protobuf.Type) walk(child);
    }
  };
  walk(schema().lookup('kiapi') as protobuf.Namespace);
  return { messages, enums };
}

describe.skipIf(skip)('the .proto subset equals KiCad 9.0.8', () => {
  it('finds libkiapi', () => {
    expect(existsSync(LIBKIAPI), `${LIBKIAPI} is missing: run scripts/install-system.sh`).toBe(true);
  });

  const kicad: ReturnType<typeof kiapiSchema> = existsSync(LIBKIAPI) ? kiapiSchema() : { messages: new Map(), enums: new Map() };
  const { messages, enums } = ours();

  it('declares every message and field as KiCad does', () => {
    expect(messages.length).toBeGreaterThan(80);
    const mismatches: string[] = [];
    let checked = 0;
    for (const type of messages) {
      const name = type.fullName.slice(1);
      const theirs = kicad.messages.get(name);
      if (!theirs) {
        mismatches.push(`${name}: not in KiCad`);
        continue;
      }
      const realOneofs = (theirs.oneofDecl ?? []).map((o) => o.name);
      for (const field of type.fieldsArray) {
        checked++;
        const f = (theirs.field ?? []).find((x) => x.number === field.id);
        if (!f) {
          mismatches.push(`${name}.${field.name} = ${field.id}: no such field number in KiCad`);
          continue;
        }
        field.resolve();
        const theirType = f.typeName ? f.typeName.replace(/^\./, '') : SCALAR[f.type ?? 0];
        const ourType = field.resolvedType ? field.resolvedType.fullName.slice(1) : field.type;
        const theirOneof = Object.hasOwn(f, 'oneofIndex') && !f.proto3Optional ? realOneofs[f.oneofIndex!] : undefined;
        const ourOneof = field.partOf && !field.partOf.name.startsWith('_') ? field.partOf.name : undefined;
        const theirRepeated = f.label === 3;
        const ourRepeated = field.repeated || field.map;
        const got = `${field.name} ${ourType} repeated=${ourRepeated} oneof=${ourOneof}`;
        const want = `${f.name} ${theirType} repeated=${theirRepeated} oneof=${theirOneof}`;
        // A map<k, v> is a repeated entry message on the wire.
        const mapOk = field.map && theirType.endsWith('Entry');
        if (got !== want && !mapOk) mismatches.push(`${name} #${field.id}: ours ${got}, KiCad ${want}`);
      }
    }
    expect(checked).toBeGreaterThan(300);
    expect(mismatches).toEqual([]);
  });

  it('declares every enum value as KiCad does', () => {
    const mismatches: string[] = [];
    for (const e of enums) {
      const name = e.fullName.slice(1);
      const theirs = kicad.enums.get(name);
      const theirValues = new Map((theirs?.value ?? []).map((v) => [v.name, v.number]));
      if (!theirs) mismatches.push(`${name}: not in KiCad`);
      // A subset is fine (we list only the PCB object types), a different number is not.
      for (const [member, value] of Object.entries(e.values)) {
        if (theirValues.get(member) !== value) mismatches.push(`${name}.${member} = ${value}: KiCad has ${theirValues.get(member)}`);
      }
    }
    expect(enums.length).toBeGreaterThan(20);
    expect(mismatches).toEqual([]);
  });

  it('has every field of the messages it sends whole', () => {
    const missing: string[] = [];
    for (const name of SENT_WHOLE) {
      const type = schema().lookupType(name);
      for (const f of kicad.messages.get(name)?.field ?? []) {
        if (!type.fieldsById[f.number!]) missing.push(`${name}.${f.name}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
