// Our .proto subset against KiCad master's (KiCad 11's) schema, as read from KiCad's api/proto and
// committed in kicad-master-schema.json: every message, field and enum value the client declares has
// the same number and type there, or is listed in since.ts as not on master at the commits read; every
// command the client sends is there with the reply it expects; what the client sends whole has every
// field master has. When a KiCad 11 binary can be installed, tests/live/proto-schema.test.ts checks
// the same against its libkiapi.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { schema } from '../../ipc/messages.ts';
import { ourTypes, SENT_WHOLE } from '../support/proto-types.ts';
import { NOT_ON_MASTER, SINCE_KICAD_10, SINCE_KICAD_11 } from '../../ipc/proto/since.ts';

interface MasterSchema {
  sources: Record<string, string>;
  /** Message → field → "number [repeated|optional|oneof:NAME] type". */
  messages: Record<string, Record<string, string>>;
  enums: Record<string, Record<string, number>>;
}

const master = JSON.parse(readFileSync(join(import.meta.dirname, 'kicad-master-schema.json'), 'utf8')) as MasterSchema;

/** One of our fields in the snapshot's words. */
function describeOurs(field: protobuf.Field): string {
  field.resolve();
  const words = [String(field.id)];
  const oneof = field.partOf;
  // protobufjs writes a proto3 `optional` as a one-member oneof named "_<field>".
  if (oneof && oneof.name === `_${field.name}`) words.push('optional');
  else if (oneof) words.push(`oneof:${oneof.name}`);
  if (field.repeated) words.push('repeated');
  const type = field.resolvedType ? field.resolvedType.fullName.slice(1) : field.type;
  words.push(field instanceof protobuf.MapField ? `map<${field.keyType},${type}>` : type);
  return words.join(' ');
}

/** The commands the client sends, with the reply it expects, as written in ipc/client.ts. */
function clientCommands(): [string, string][] {
  const text = readFileSync(join(import.meta.dirname, '..', '..', 'ipc', 'client.ts'), 'utf8');
  const prefix: Record<string, string> = { C: 'kiapi.common.commands.', B: 'kiapi.board.commands.' };
  const out = new Map<string, string>();
  const call = /call\(\s*`\$\{([CB])\}(\w+)`,[\s\S]*?,\s*(?:`\$\{([CB])\}(\w+)`|(EMPTY))/g;
  for (const m of text.matchAll(call)) {
    out.set(prefix[m[1]] + m[2], m[5] ? 'google.protobuf.Empty' : prefix[m[3]] + m[4]);
  }
  return [...out].sort();
}

describe("the .proto subset against KiCad master's schema (kicad-master-schema.json)", () => {
  const { messages, enums } = ourTypes();

  it('names where every fact came from', () => {
    expect(Object.keys(master.sources).length).toBeGreaterThanOrEqual(10);
    for (const commit of Object.values(master.sources)) expect(commit).toMatch(/^[0-9a-f]{40}$/);
  });

  it('declares every message and field with master’s number and type, or lists it as not on master', () => {
    const wrong: string[] = [];
    let compared = 0;
    for (const type of messages) {
      const name = type.fullName.slice(1);
      const theirs = master.messages[name];
      if (!theirs) {
        if (!NOT_ON_MASTER.has(name)) wrong.push(`${name}: not in master`);
        continue;
      }
      for (const field of type.fieldsArray) {
        const full = `${name}.${field.name}`;
        const ours = describeOurs(field);
        const them = theirs[field.name];
        if (NOT_ON_MASTER.has(full)) {
          if (them) wrong.push(`${full}: listed as not on master, but master has it (${them})`);
          const taken = Object.entries(theirs).find(([, t]) => t.split(' ')[0] === String(field.id));
          if (taken) wrong.push(`${full} = ${field.id}: master uses ${field.id} for ${taken[0]}`);
          continue;
        }
        compared++;
        if (ours !== them) wrong.push(`${full}: ours "${ours}", master "${them ?? 'absent'}"`);
      }
    }
    expect(compared).toBeGreaterThan(300);
    expect(wrong).toEqual([]);
  });

  it('declares every enum value with master’s number, or lists it as not on master', () => {
    const wrong: string[] = [];
    for (const e of enums) {
      const name = e.fullName.slice(1);
      const theirs = master.enums[name];
      if (!theirs) {
        if (!NOT_ON_MASTER.has(name)) wrong.push(`${name}: not in master`);
        continue;
      }
      for (const [member, value] of Object.entries(e.values)) {
        if (theirs[member] !== value) wrong.push(`${name}.${member} = ${value}: master has ${theirs[member] ?? 'no such value'}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('has every field master has of the messages the client sends whole', () => {
    const missing: string[] = [];
    for (const name of SENT_WHOLE) {
      const ours = schema().lookupType(name);
      for (const field of Object.keys(master.messages[name] ?? {})) if (!ours.fields[field]) missing.push(`${name}.${field}`);
      expect(master.messages[name], name).toBeDefined();
    }
    expect(missing).toEqual([]);
  });

  it('finds every command the client sends in master, with the reply the client expects', () => {
    const commands = clientCommands();
    expect(commands.length).toBeGreaterThan(20);
    const wrong: string[] = [];
    for (const [command, reply] of commands) {
      if (!master.messages[command]) wrong.push(`${command}: not in master`);
      if (reply !== 'google.protobuf.Empty' && !master.messages[reply]) wrong.push(`${reply} (reply to ${command}): not in master`);
    }
    expect(wrong).toEqual([]);
    expect(commands).toContainEqual(['kiapi.board.commands.GetBoardDesignRules', 'kiapi.board.commands.BoardDesignRulesResponse']);
  });

  it('holds what since.ts says came with 10 and with 11', () => {
    const inMaster = (name: string) => {
      if (master.messages[name] || master.enums[name]) return true;
      const dot = name.lastIndexOf('.');
      const [owner, member] = [name.slice(0, dot), name.slice(dot + 1)];
      return member in (master.messages[owner] ?? {}) || member in (master.enums[owner] ?? {});
    };
    const missing = [...SINCE_KICAD_10, ...SINCE_KICAD_11].filter((name) => !NOT_ON_MASTER.has(name) && !inMaster(name));
    expect(missing).toEqual([]);
  });
});
