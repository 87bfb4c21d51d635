// Reads the routing-relevant part of a KiCad 9 `.kicad_pro` (JSON): board minimums, net
// classes with their patterns and assignments, and rule severities. Values arrive in mm and
// leave in nm. A missing or odd key is a warning naming the key, never silently dropped.

import type { Diagnostic } from '../board/model.ts';
import type { BoardMinimums, NetClass, ProjectRules, Severity } from '../board/rules.ts';
import { jsonErrorOffset } from './json-error.ts';
import { MAX_COORD_NM, mmToNm } from '../geom/units.ts';

/** KiCad 9's defaults (Board Setup → Constraints), nm. */
export const DEFAULT_MINIMUMS: BoardMinimums = {
  clearance: 0,
  trackWidth: 0,
  connection: 0,
  viaDiameter: 500_000,
  viaAnnularWidth: 100_000,
  throughHoleDiameter: 300_000,
  holeClearance: 250_000,
  holeToHole: 250_000,
  copperEdgeClearance: 500_000,
  microviaDiameter: 200_000,
  microviaDrill: 100_000,
  allowBlindBuried: false,
  allowMicrovias: false,
  maxError: 5_000,
  solderMaskToCopper: 0,
  resolvedSpokes: 2,
};

export const DEFAULT_CLASS: NetClass = {
  name: 'Default',
  priority: 2147483647,
  clearance: 200_000,
  trackWidth: 200_000,
  viaDiameter: 600_000,
  viaDrill: 300_000,
  microviaDiameter: 300_000,
  microviaDrill: 100_000,
  diffPairWidth: 200_000,
  diffPairGap: 250_000,
  diffPairViaGap: 250_000,
};

export class ProjectError extends Error {
  constructor(
    readonly reason: string,
    readonly source: string,
  ) {
    super(`${source}: ${reason}`);
    this.name = 'ProjectError';
  }
}

type Json = Record<string, unknown>;

function obj(v: unknown): Json | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
}

type Warn = (message: string) => void;

/** Parses `.kicad_pro` text. `text` undefined means the file is absent: defaults plus a warning. */
export function parseProject(text: string | undefined, source = 'project.kicad_pro'): ProjectRules {
  const warnings: Diagnostic[] = [];
  const warn = (message: string) => warnings.push({ severity: 'warning', message, source });
  const rules: ProjectRules = {
    minimums: { ...DEFAULT_MINIMUMS },
    classes: [{ ...DEFAULT_CLASS }],
    patterns: [],
    assignments: new Map(),
    severities: new Map(),
    warnings,
  };
  if (text === undefined) {
    warn("no .kicad_pro beside the board: KiCad's default rules are used");
    return rules;
  }
  const root = jsonRoot(text, source);
  const ds = obj(obj(root.board)?.design_settings);
  if (!ds) warn("board.design_settings is missing: KiCad's default rules are used");
  const r = obj(ds?.rules);
  if (r) readMinimums(r, rules.minimums, warn);

  const sev = obj(ds?.rule_severities);
  if (sev) {
    for (const [k, v] of Object.entries(sev)) {
      if (v === 'error' || v === 'warning' || v === 'ignore') rules.severities.set(k, v as Severity);
      else warn(`board.design_settings.rule_severities.${k} is "${String(v)}", not error, warning or ignore`);
    }
  }

  const ns = obj(root.net_settings);
  if (!ns) {
    warn('net_settings is missing: only the Default net class exists');
    return rules;
  }
  const byName = readClasses(ns, warn);
  rules.classes = [...byName.values()];
  readAssignments(ns, byName, rules, warn);
  return rules;
}

/** The top-level object of the text; a ProjectError naming line:column where JSON fails. */
function jsonRoot(text: string, source: string): Json {
  try {
    const parsed = JSON.parse(text) as unknown;
    const o = obj(parsed);
    if (!o) throw new Error('the top level is not an object');
    return o;
  } catch (e) {
    const pos = jsonErrorOffset(text);
    let where = '';
    if (pos >= 0) {
      const before = text.slice(0, pos);
      where = ` at ${before.split('\n').length}:${pos - before.lastIndexOf('\n')}`;
    }
    throw new ProjectError(`not valid JSON${where}: ${(e as Error).message.split('\n')[0]}`, source);
  }
}

/** board.design_settings.rules into `minimums` (mm to nm); a value out of range keeps the default. */
function readMinimums(r: Json, minimums: BoardMinimums, warn: Warn): void {
  const mm = (key: string, into: keyof BoardMinimums) => {
    const v = r[key];
    if (v === undefined) return;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v * 1e6 > MAX_COORD_NM) {
      warn(`board.design_settings.rules.${key} is not a number from 0 to 1500 mm; the default is used`);
      return;
    }
    (minimums[into] as number) = mmToNm(v);
  };
  mm('min_clearance', 'clearance');
  mm('min_track_width', 'trackWidth');
  mm('min_connection', 'connection');
  mm('min_via_diameter', 'viaDiameter');
  mm('min_via_annular_width', 'viaAnnularWidth');
  mm('min_through_hole_diameter', 'throughHoleDiameter');
  mm('min_hole_clearance', 'holeClearance');
  mm('min_hole_to_hole', 'holeToHole');
  mm('min_copper_edge_clearance', 'copperEdgeClearance');
  mm('min_microvia_diameter', 'microviaDiameter');
  mm('min_microvia_drill', 'microviaDrill');
  mm('max_error', 'maxError');
  mm('solder_mask_to_copper_clearance', 'solderMaskToCopper');
  const spokes = r.min_resolved_spokes;
  if (spokes !== undefined) {
    if (typeof spokes === 'number' && Number.isInteger(spokes) && spokes >= 0 && spokes <= 99) minimums.resolvedSpokes = spokes;
    else warn(`board.design_settings.rules.min_resolved_spokes is not a whole number from 0 to 99; the default (${DEFAULT_MINIMUMS.resolvedSpokes}) is used`);
  }
  if (typeof r.allow_blind_buried_vias === 'boolean') minimums.allowBlindBuried = r.allow_blind_buried_vias;
  if (typeof r.allow_microvias === 'boolean') minimums.allowMicrovias = r.allow_microvias;
}

/** net_settings.classes by name, each field falling back to Default's; Default always present. */
function readClasses(ns: Json, warn: Warn): Map<string, NetClass> {
  const classes = Array.isArray(ns.classes) ? ns.classes : [];
  const byName = new Map<string, NetClass>();
  for (const [i, c0] of classes.entries()) {
    const c = obj(c0);
    if (!c || typeof c.name !== 'string') {
      warn(`net_settings.classes[${i}] has no name and is ignored`);
      continue;
    }
    const base = c.name === 'Default' ? DEFAULT_CLASS : (byName.get('Default') ?? DEFAULT_CLASS);
    const num = (key: string, fallback: number) => {
      const v = c[key];
      if (v === undefined || v === null) return fallback;
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v * 1e6 > MAX_COORD_NM) {
        warn(`net_settings.classes[${i}] ("${c.name as string}").${key} is not a number from 0 to 1500 mm`);
        return fallback;
      }
      return mmToNm(v);
    };
    byName.set(c.name, {
      name: c.name,
      priority: typeof c.priority === 'number' ? c.priority : c.name === 'Default' ? 2147483647 : i,
      clearance: num('clearance', base.clearance),
      trackWidth: num('track_width', base.trackWidth),
      viaDiameter: num('via_diameter', base.viaDiameter),
      viaDrill: num('via_drill', base.viaDrill),
      microviaDiameter: num('microvia_diameter', base.microviaDiameter),
      microviaDrill: num('microvia_drill', base.microviaDrill),
      diffPairWidth: num('diff_pair_width', base.diffPairWidth),
      diffPairGap: num('diff_pair_gap', base.diffPairGap),
      diffPairViaGap: num('diff_pair_via_gap', base.diffPairViaGap),
    });
  }
  if (!byName.has('Default')) byName.set('Default', { ...DEFAULT_CLASS });
  return byName;
}

/** net_settings.netclass_patterns and netclass_assignments, naming only known classes. */
function readAssignments(ns: Json, byName: Map<string, NetClass>, rules: ProjectRules, warn: Warn): void {
  const pats = Array.isArray(ns.netclass_patterns) ? ns.netclass_patterns : [];
  for (const [i, p0] of pats.entries()) {
    const p = obj(p0);
    if (!p || typeof p.pattern !== 'string' || typeof p.netclass !== 'string') {
      warn(`net_settings.netclass_patterns[${i}] needs a string pattern and netclass; ignored`);
      continue;
    }
    if (!byName.has(p.netclass)) {
      warn(`net_settings.netclass_patterns[${i}] names the unknown net class "${p.netclass}"; ignored`);
      continue;
    }
    rules.patterns.push({ pattern: p.pattern, netclass: p.netclass });
  }

  const asg = obj(ns.netclass_assignments);
  if (asg) {
    for (const [net, v] of Object.entries(asg)) {
      const names = (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string');
      const known = names.filter((n) => byName.has(n));
      if (known.length < names.length) warn(`net_settings.netclass_assignments for net "${net}" names an unknown net class`);
      if (known.length > 0) rules.assignments.set(net, known);
    }
  }
}
