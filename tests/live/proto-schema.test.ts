// Our hand-written .proto subset must equal each KiCad's schema: every message, field (name, number,
// type, repeated, oneof) and enum value we declare is looked up in the descriptors compiled into that
// version's libkiapi. The subset is written as KiCad 10 has it, with what 11 adds; ipc/proto/since.ts
// names what 9.0.8 lacks (checked absent there, present from 10 on) and what 10.0.7 lacks (checked
// absent in 9 and 10, present from 11 on), the value names 9 spells otherwise and the field 10 moved
// into a oneof. Items the client sends whole (tracks, arcs, vias, padstacks) must be complete for every
// version. A KiCad 11 is checked the same way the day its libkiapi is installed.
import { existsSync } from 'node:fs';
import protobuf from 'protobufjs';
import { expect, it } from 'vitest';
import { schema } from '../../ipc/messages.ts';
import { ourTypes, SENT_WHOLE } from '../support/proto-types.ts';
import { KICAD_9_NAMES, KICAD_9_OUTSIDE_ONEOF, NOT_ON_MASTER, SINCE_KICAD_10, SINCE_KICAD_11 } from '../../ipc/proto/since.ts';
import { kiapiSchema, libkiapi } from './kiapi-descriptors.ts';
import { describeKicads } from './kicad-harness.ts';

// FieldDescriptorProto.Type numbers → proto type names.
const SCALAR: Record<number, string> = {
  1: 'double',
  2: 'float',
  3: 'int64',
  4: 'uint64',
  5: 'int32',
  6: 'fixed64',
  7: 'fixed32',
  8: 'bool',
  9: 'string',
  12: 'bytes',
  13: 'uint32',
  15: 'sfixed32',
  16: 'sfixed64',
  17: 'sint32',
  18: 'sint64',
};

type KiapiSchema = ReturnType<typeof kiapiSchema>;

/** Whether a message, enum, field ("M.field") or enum value ("E.VALUE") is in the schema. */
function has(s: KiapiSchema, name: string): boolean {
  if (s.messages.has(name) || s.enums.has(name)) return true;
  const dot = name.lastIndexOf('.');
  const [owner, member] = [name.slice(0, dot), name.slice(dot + 1)];
  return (s.messages.get(owner)?.field ?? []).some((f) => f.name === member) || (s.enums.get(owner)?.value ?? []).some((v) => v.name === member);
}

describeKicads("the .proto subset equals libkiapi's schema", (kicad) => {
  const lib = kicad.major === 0 ? '' : libkiapi(kicad);
  const before10 = kicad.major < 10;
  const before11 = kicad.major < 11;
  // What came later is left out of the comparison (and checked absent below).
  const inThisVersion = (name: string) => !(before10 && SINCE_KICAD_10.has(name)) && !(before11 && SINCE_KICAD_11.has(name));

  it('finds libkiapi', () => {
    expect(existsSync(lib), `${lib} is missing: run scripts/install-system.sh (9) or scripts/install-kicad10.sh (10)`).toBe(true);
  });

  const theirs: KiapiSchema = existsSync(lib) ? kiapiSchema(lib) : { messages: new Map(), enums: new Map() };
  const { messages, enums } = ourTypes();

  it('declares every message and field as KiCad does', () => {
    expect(messages.length).toBeGreaterThan(80);
    const mismatches: string[] = [];
    let checked = 0;
    let compared = 0;
    for (const type of messages) {
      const name = type.fullName.slice(1);
      if (!inThisVersion(name)) continue;
      compared++;
      const them = theirs.messages.get(name);
      if (!them && !before11 && NOT_ON_MASTER.has(name)) continue;
      if (!them) {
        mismatches.push(`${name}: not in KiCad`);
        continue;
      }
      const realOneofs = (them.oneofDecl ?? []).map((o) => o.name);
      for (const field of type.fieldsArray) {
        if (!inThisVersion(`${name}.${field.name}`)) continue;
        checked++;
        const f = (them.field ?? []).find((x) => x.number === field.id);
        // What only the 10.0 branch had when master was read may be missing from an 11; if present it must match.
        if (!f && !before11 && NOT_ON_MASTER.has(`${name}.${field.name}`)) continue;
        if (!f) {
          mismatches.push(`${name}.${field.name} = ${field.id}: no such field number in KiCad`);
          continue;
        }
        field.resolve();
        const theirType = f.typeName ? f.typeName.replace(/^\./, '') : SCALAR[f.type ?? 0];
        const ourType = field.resolvedType ? field.resolvedType.fullName.slice(1) : field.type;
        const theirOneof = Object.hasOwn(f, 'oneofIndex') && !f.proto3Optional ? realOneofs[f.oneofIndex!] : undefined;
        const oneofHere = !(before10 && KICAD_9_OUTSIDE_ONEOF.has(`${name}.${field.name}`));
        const ourOneof = field.partOf && !field.partOf.name.startsWith('_') && oneofHere ? field.partOf.name : undefined;
        const theirRepeated = f.label === 3;
        const ourRepeated = field.repeated || field.map;
        const got = `${field.name} ${ourType} repeated=${ourRepeated} oneof=${ourOneof}`;
        const want = `${f.name} ${theirType} repeated=${theirRepeated} oneof=${theirOneof}`;
        // A map<k, v> is a repeated entry message on the wire.
        const mapOk = field.map && theirType.endsWith('Entry');
        if (got !== want && !mapOk) mismatches.push(`${name} #${field.id}: ours ${got}, KiCad ${want}`);
      }
    }
    console.log(`KiCad ${kicad.version}: ${checked} fields of ${compared} messages compared with ${lib}`);
    expect(checked).toBeGreaterThan(300);
    expect(mismatches).toEqual([]);
  });

  it('declares every enum value as KiCad does', () => {
    const mismatches: string[] = [];
    let checked = 0;
    let compared = 0;
    for (const e of enums) {
      const name = e.fullName.slice(1);
      if (!inThisVersion(name)) continue;
      compared++;
      const them = theirs.enums.get(name);
      if (!them && !before11 && NOT_ON_MASTER.has(name)) continue;
      const theirValues = new Map((them?.value ?? []).map((v) => [v.name, v.number]));
      if (!them) mismatches.push(`${name}: not in KiCad`);
      // A subset is fine (we list only the PCB object types), a different number is not.
      for (const [member, value] of Object.entries(e.values)) {
        const full = `${name}.${member}`;
        if (!inThisVersion(full)) continue;
        checked++;
        const theirName = before10 ? (KICAD_9_NAMES.get(full) ?? member) : member;
        if (theirValues.get(theirName) !== value) mismatches.push(`${full} = ${value}: KiCad has ${theirName} = ${theirValues.get(theirName)}`);
      }
    }
    console.log(`KiCad ${kicad.version}: ${checked} values of ${compared} enums compared`);
    expect(enums.length).toBeGreaterThan(20);
    expect(mismatches).toEqual([]);
  });

  it('has every field of the messages it sends whole', () => {
    const missing: string[] = [];
    for (const name of SENT_WHOLE) {
      const type = schema().lookupType(name);
      expect(theirs.messages.has(name), name).toBe(true);
      for (const f of theirs.messages.get(name)?.field ?? []) {
        if (!type.fieldsById[f.number!]) missing.push(`${name}.${f.name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it(`lists exactly what KiCad 9 lacks: ${before10 ? 'absent here' : 'present here'}, and in our subset`, () => {
    const wrong: string[] = [];
    for (const name of SINCE_KICAD_10) {
      const inOurs =
        schema().lookup(name) !== null ||
        (() => {
          const dot = name.lastIndexOf('.');
          const owner = schema().lookup(name.slice(0, dot));
          return owner instanceof protobuf.Enum && Object.hasOwn(owner.values, name.slice(dot + 1));
        })();
      if (!inOurs) wrong.push(`${name}: not in our subset`);
      if (has(theirs, name) === before10) wrong.push(`${name}: ${before10 ? 'present in' : 'missing from'} KiCad ${kicad.version}`);
    }
    for (const [ours10, name9] of KICAD_9_NAMES) {
      const owner = ours10.slice(0, ours10.lastIndexOf('.'));
      if (!has(theirs, before10 ? `${owner}.${name9}` : ours10)) wrong.push(`${ours10}: KiCad ${kicad.version} spells it otherwise`);
    }
    expect(SINCE_KICAD_10.size).toBeGreaterThan(10);
    expect(wrong).toEqual([]);
  });

  it(`lists exactly what KiCad 10 lacks: ${before11 ? 'absent here' : 'present here'}, and in our subset`, () => {
    const wrong: string[] = [];
    for (const name of SINCE_KICAD_11) {
      if (schema().lookup(name) === null && !hasEnumValue(name)) wrong.push(`${name}: not in our subset`);
      if (has(theirs, name) === before11) wrong.push(`${name}: ${before11 ? 'present in' : 'missing from'} KiCad ${kicad.version}`);
    }
    expect(wrong).toEqual([]);
  });
});

function hasEnumValue(name: string): boolean {
  const dot = name.lastIndexOf('.');
  const owner = schema().lookup(name.slice(0, dot));
  return owner instanceof protobuf.Enum && Object.hasOwn(owner.values, name.slice(dot + 1));
}
