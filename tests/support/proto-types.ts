// The client's own protobuf subset as lists of its messages and enums, and the messages it sends
// whole, for the tests that hold it against KiCad's schemas (the installed libkiapi, and the
// snapshot of KiCad master's api/proto).
import protobuf from 'protobufjs';
import { schema } from '../../ipc/messages.ts';

/** The messages the client sends whole (built from a read item): a field it does not know would be lost. */
export const SENT_WHOLE = [
  'kiapi.board.types.Track',
  'kiapi.board.types.Arc',
  'kiapi.board.types.Via',
  'kiapi.board.types.PadStack',
  'kiapi.board.types.PadStackLayer',
  'kiapi.board.types.DrillProperties',
  'kiapi.board.types.PadStackOuterLayer',
  'kiapi.board.types.BoardGraphicShape',
  'kiapi.common.types.GraphicShape',
  'kiapi.common.ApiRequest',
  'kiapi.common.ApiRequestHeader',
  'kiapi.common.commands.EndCommit',
  'kiapi.common.commands.CreateItems',
];

/** Every message and enum of the client's subset, nested ones included. */
export function ourTypes(): { messages: protobuf.Type[]; enums: protobuf.Enum[] } {
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
