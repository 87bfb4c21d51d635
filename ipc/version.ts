// Which generation of KiCad's API a GetVersion reply belongs to, and what the client may use there.
// Between releases KiCad's master branch carries the version <previous>.99 (10.99.0 while 11 is made,
// in KiCad's cmake/KiCadVersion.cmake), so a 10.99 build already speaks 11's API. A KiCad newer than
// the newest generation checked here is spoken to as that generation: KiCad adds fields and commands
// and keeps the numbers of the old ones.
import type { KicadVersion } from './types.ts';

/** The API generations this client was checked against (9.0.8 and 10.0.7 live, 11 from KiCad's source). */
export type ApiGeneration = 9 | 10 | 11;

export const OLDEST_GENERATION: ApiGeneration = 9;
export const NEWEST_GENERATION: ApiGeneration = 11;

/** The generation a version speaks, or null for a KiCad older than 9.0 (no IPC API). */
export function apiGeneration(v: Pick<KicadVersion, 'major' | 'minor'>): ApiGeneration | null {
  const major = v.minor >= 99 ? v.major + 1 : v.major;
  if (major < OLDEST_GENERATION) return null;
  return Math.min(major, NEWEST_GENERATION) as ApiGeneration;
}

/** Whether this KiCad is newer than any the client was checked against (it is still spoken to). */
export function isNewerThanChecked(v: Pick<KicadVersion, 'major' | 'minor'>): boolean {
  return (v.minor >= 99 ? v.major + 1 : v.major) > NEWEST_GENERATION;
}

/** What the client uses, by generation; everything else is common to 9, 10 and 11. */
export interface ApiFeatures {
  /** ViaType VT_BLIND and VT_BURIED (9 has one VT_BLIND_BURIED). */
  blindAndBuriedApart: boolean;
  /** GetItemsById (9 reads every item of the kinds asked and filters). */
  itemsById: boolean;
  /** GetItemsByNet with nets by name (9 declares it with net codes but has no handler). */
  itemsByNet: boolean;
  /** GetBoardDesignRules: the board's minimums and predefined sizes (before 11 only the project file has them). */
  boardDesignRules: boolean;
  /** OpenDocument and CloseDocument, which KiCad 11's headless server (kicad-cli api-server) answers. */
  openDocument: boolean;
}

export function apiFeatures(generation: ApiGeneration): ApiFeatures {
  return {
    blindAndBuriedApart: generation >= 10,
    itemsById: generation >= 10,
    itemsByNet: generation >= 10,
    boardDesignRules: generation >= 11,
    openDocument: generation >= 11,
  };
}
