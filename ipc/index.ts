// The public face of the KiCad IPC client: the client, its errors, its plain types and the socket helpers.
// Nothing protobuf leaves this folder.
export { KicadClient, type ConnectOptions } from './client.ts';
export { Commit } from './commit.ts';
export {
  KicadApiError,
  KicadBusyError,
  KicadConnectionError,
  KicadIpcError,
  KicadItemError,
  KicadProtocolError,
  KicadTimeoutError,
  KicadVersionError,
  UnknownNetError,
  type ApiStatus,
} from './errors.ts';
export { defaultSocketDir, resolveSocketPath, socketCandidates, socketPathFromUrl } from './socket-path.ts';
export type * from './types.ts';
export { apiFeatures, apiGeneration, isNewerThanChecked, NEWEST_GENERATION, OLDEST_GENERATION, type ApiFeatures, type ApiGeneration } from './version.ts';
