// The audit of KiCad's DRC types (engine/drc/kicad-audit.json): what the engine does about each
// type kicad-cli can report. Read by the type tests and by the route benchmark's gate.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type Severity = 'error' | 'warning' | 'ignore';

export type AuditStatus = 'modelled' | 'guarded' | 'prevented' | 'not_from_copper' | 'not_modelled';

export interface AuditEntry {
  type: string;
  /** KiCad majors that know the type. */
  kicad: number[];
  /** The severity a new KiCad project gives it, per major where versions differ. */
  severity: Severity | Record<string, Severity>;
  status: AuditStatus;
  /** modelled: the engine file that checks it. */
  check?: string;
  /** guarded: the custom-rule constraint that alone lets added copper break it. */
  constraint?: string;
  /** prevented: how the router keeps clear of it. */
  how?: string;
  /** not_from_copper: why tracks and vias cannot cause it. */
  why?: string;
  /** not_modelled: when added copper could cause it. */
  when?: string;
  /** KiCad reports it but writes no severity for it in a project. */
  reportedOnly?: boolean;
}

/** A type's default severity in one KiCad major. */
export function defaultSeverity(e: AuditEntry, major: number): Severity {
  return typeof e.severity === 'string' ? e.severity : e.severity[String(major)];
}

export const AUDIT_FILE = join(import.meta.dirname, '..', '..', 'engine', 'drc', 'kicad-audit.json');

export function kicadAudit(): AuditEntry[] {
  return (JSON.parse(readFileSync(AUDIT_FILE, 'utf8')) as { types: AuditEntry[] }).types;
}
