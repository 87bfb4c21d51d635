// The .proto text of KiCad's kiapi.common.commands that this client sends and receives, as KiCad 10.0.7
// has them with the headless server's document commands of 11 added; what 9.0.8 and 10.0.7 lack is
// listed in since.ts. Names and numbers equal KiCad's (checked against each version's libkiapi by
// tests/live/proto-schema.test.ts, against master by tests/ipc/kicad-master-schema.test.ts).

export const COMMON_COMMANDS_PROTO = `
syntax = "proto3";
package kiapi.common.commands;
enum RunActionStatus { RAS_UNKNOWN = 0; RAS_OK = 1; RAS_INVALID = 2; RAS_FRAME_NOT_OPEN = 3; }
enum CommitAction { CMA_UNKNOWN = 0; CMA_COMMIT = 1; CMA_DROP = 2; }
enum ItemStatusCode {
  ISC_UNKNOWN = 0; ISC_OK = 1; ISC_INVALID_TYPE = 2; ISC_EXISTING = 3; ISC_NONEXISTENT = 4;
  ISC_IMMUTABLE = 5; ISC_INVALID_DATA = 7;
}
enum ItemDeletionStatus { IDS_UNKNOWN = 0; IDS_OK = 1; IDS_NONEXISTENT = 2; IDS_IMMUTABLE = 3; }

message GetVersion {}
message GetVersionResponse { kiapi.common.types.KiCadVersion version = 1; }
message Ping {}
message GetOpenDocuments { kiapi.common.types.DocumentType type = 1; }
message GetOpenDocumentsResponse { repeated kiapi.common.types.DocumentSpecifier documents = 1; }
message RunAction { string action = 1; }
message RunActionResponse { RunActionStatus status = 1; }

message BeginCommit { kiapi.common.types.ItemHeader header = 1; }
message BeginCommitResponse { kiapi.common.types.KIID id = 1; }
message EndCommit {
  kiapi.common.types.KIID id = 1; CommitAction action = 2; string message = 3; kiapi.common.types.ItemHeader header = 4;
}
message EndCommitResponse {}

message ItemStatus { ItemStatusCode code = 1; string error_message = 2; }
message CreateItems {
  kiapi.common.types.ItemHeader header = 1;
  repeated google.protobuf.Any items = 2;
  kiapi.common.types.KIID container = 3;
}
message ItemCreationResult { ItemStatus status = 1; google.protobuf.Any item = 2; }
message CreateItemsResponse {
  kiapi.common.types.ItemHeader header = 1;
  kiapi.common.types.ItemRequestStatus status = 2;
  repeated ItemCreationResult created_items = 3;
}
message GetItems { kiapi.common.types.ItemHeader header = 1; repeated kiapi.common.types.KiCadObjectType types = 2; }
message GetItemsResponse {
  kiapi.common.types.ItemHeader header = 1;
  kiapi.common.types.ItemRequestStatus status = 2;
  repeated google.protobuf.Any items = 3;
}
message GetItemsById { kiapi.common.types.ItemHeader header = 1; repeated kiapi.common.types.KIID items = 2; }
message UpdateItems { kiapi.common.types.ItemHeader header = 1; repeated google.protobuf.Any items = 2; }
message ItemUpdateResult { ItemStatus status = 1; google.protobuf.Any item = 2; }
message UpdateItemsResponse {
  kiapi.common.types.ItemHeader header = 1;
  kiapi.common.types.ItemRequestStatus status = 2;
  repeated ItemUpdateResult updated_items = 3;
}
message DeleteItems { kiapi.common.types.ItemHeader header = 1; repeated kiapi.common.types.KIID item_ids = 2; }
message ItemDeletionResult { kiapi.common.types.KIID id = 1; ItemDeletionStatus status = 2; }
message DeleteItemsResponse {
  kiapi.common.types.ItemHeader header = 1;
  kiapi.common.types.ItemRequestStatus status = 2;
  repeated ItemDeletionResult deleted_items = 3;
}

message GetSelection { kiapi.common.types.ItemHeader header = 1; repeated kiapi.common.types.KiCadObjectType types = 2; }
message SelectionResponse { repeated google.protobuf.Any items = 1; }
message AddToSelection { kiapi.common.types.ItemHeader header = 1; repeated kiapi.common.types.KIID items = 2; }
message RemoveFromSelection { kiapi.common.types.ItemHeader header = 1; repeated kiapi.common.types.KIID items = 2; }
message ClearSelection { kiapi.common.types.ItemHeader header = 1; }

message SaveDocumentToString { kiapi.common.types.DocumentSpecifier document = 1; }
message SavedDocumentResponse { kiapi.common.types.DocumentSpecifier document = 1; string contents = 2; }
// A text's glyphs as KiCad draws them (stroke segments at the pen width, or outline polygons). A text box
// is rendered at the origin (KiCad copies only its string and attributes), so its glyphs need moving.
message TextOrTextBox { oneof inner { kiapi.common.types.Text text = 1; kiapi.common.types.TextBox textbox = 2; } }
message TextWithShapes { TextOrTextBox text = 1; kiapi.common.types.CompoundShape shapes = 2; }
message GetTextAsShapes { repeated TextOrTextBox text = 1; }
message GetTextAsShapesResponse { repeated TextWithShapes text_with_shapes = 1; }
message GetNetClasses {}
message NetClassesResponse { repeated kiapi.common.project.NetClass net_classes = 1; }
// KiCad 11's headless server (kicad-cli api-server) opens and closes one document at a time.
message OpenDocument { kiapi.common.types.DocumentType type = 1; string path = 2; }
message OpenDocumentResponse { kiapi.common.types.DocumentSpecifier document = 1; }
message CloseDocument { kiapi.common.types.DocumentSpecifier document = 1; }
`;
