// `tracemaker route BOARD --out OUT …`: routes the open connections of the chosen nets, writes
// the board with only the new copper added, and prints what was routed, what is open and why.
// `--work W` bounds the whole call, its variants together, as a session's route `work` does.

import { writeFileSync } from 'node:fs';
import { addCopper } from '../../engine/kicad/write-board.ts';
import { MAX_VARIANTS, MAX_VARIANT_WORK, type RouteRequest } from '../../engine/route/index.ts';
import { readDesignFiles, UsageError, writeRulesBeside } from '../design-files.ts';
import { loadDesign } from '../../engine/kicad/load.ts';
import { nmToMm } from '../../engine/geom/units.ts';
import { routeDefaults, runRoute } from '../session-route.ts';
import type { Command } from './command.ts';

export const route: Command = {
  name: 'route',
  summary: 'route the open connections of a board (or of some nets) and write the result',
  usage:
    'tracemaker route BOARD --out OUT [--nets N1,N2] [--work W (the most the whole call may spend, all variants together)] [--variants V] [--seed S] [--threads T] [--json]',
  flags: { out: 'string', nets: 'string', work: 'number', variants: 'number', seed: 'number', threads: 'number', json: 'boolean' },
  async run(args, out) {
    const file = args.positional[0];
    const outPath = args.flags.out;
    if (typeof outPath !== 'string' || !outPath) throw new UsageError(`route: --out OUT is required\nusage: ${this.usage}`);
    const files = readDesignFiles(file);
    const design = loadDesign(files);
    const { board } = design;
    let nets: number[] | undefined;
    if (typeof args.flags.nets === 'string') {
      nets = [];
      for (const name of args.flags.nets
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)) {
        const code = board.netByName.get(name) ?? (/^\d+$/.test(name) && board.nets[Number(name)] ? Number(name) : undefined);
        if (code === undefined) throw new UsageError(`route: --nets names an unknown net "${name}"`);
        nets.push(code);
      }
    }
    // The defaults are the session's too (session-route.ts), so the two front doors agree.
    const d = routeDefaults(board, { whole: nets === undefined });
    const work = args.flags.work === undefined ? undefined : Number(args.flags.work);
    if (work !== undefined && !(work > 0 && work <= MAX_VARIANT_WORK))
      throw new UsageError(`route: --work expects 1..${MAX_VARIANT_WORK}, got ${args.flags.work}`);
    const variants = args.flags.variants === undefined ? d.variants : Number(args.flags.variants);
    if (!(Number.isInteger(variants) && variants >= 1 && variants <= MAX_VARIANTS))
      throw new UsageError(`route: --variants expects 1..${MAX_VARIANTS}, got ${args.flags.variants}`);
    const seed = args.flags.seed === undefined ? d.seed : Number(args.flags.seed);
    if (!Number.isInteger(seed) || seed < 0) throw new UsageError(`route: --seed expects a non-negative integer, got ${args.flags.seed}`);
    const threads = args.flags.threads === undefined ? d.threads : Number(args.flags.threads);
    if (!(Number.isInteger(threads) && threads >= 1 && threads <= 8)) throw new UsageError(`route: --threads expects 1..8, got ${args.flags.threads}`);

    const request: RouteRequest = { nets, work, variants, seed };
    const t0 = process.hrtime.bigint();
    const result = await runRoute(files, request, threads, { design });
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    writeFileSync(outPath, addCopper(board, result.tracks, result.vias));
    const rules = writeRulesBeside(outPath, files);

    const name = (n: number) => board.nets[n]?.name ?? String(n);
    const data = {
      board: file,
      out: outPath,
      rules_written: rules,
      routed: result.summary.routed,
      open: result.summary.open,
      tracks: result.summary.tracks,
      vias: result.summary.vias,
      length_mm: nmToMm(result.summary.length),
      work: result.work,
      seconds: Math.round(seconds * 1000) / 1000,
      stopped: result.stopped,
      variant: result.variant,
      nets: result.nets.map((n) => ({
        net: n.name,
        routed: n.routed,
        open: n.open,
        tracks: n.tracks.length,
        vias: n.vias.length,
        length_mm: nmToMm(n.length),
      })),
      // Each differential pair routed: laid as a coupled pair or not, its coupled share, and why.
      pairs: (result.pairs ?? []).map((p) => ({
        net: name(p.plus),
        partner: name(p.minus),
        coupled: p.coupled,
        coupled_fraction: Math.round(1000 * p.share) / 1000,
        ...(p.why ? { why: p.why } : {}),
      })),
      open_connections: result.open.map((c) => ({
        net: c.netName,
        from: `${c.from.ref}.${c.from.number}`,
        to: `${c.to.ref}.${c.to.number}`,
        reason: c.stuck?.reason,
        why: c.stuck?.why,
        blockers: c.stuck?.blockers.map((b) => ({ net: b.name || name(b.net), count: b.count })),
        rips: c.stuck?.rips,
        fails: c.stuck?.fails,
        tried: c.stuck?.tried,
      })),
    };
    if (args.flags.json) {
      out.stdout(JSON.stringify(data, null, 2) + '\n');
      return 0;
    }
    const lines = [
      `${file} → ${outPath}`,
      `  ${data.routed} connections routed, ${data.open} open; ${data.tracks} tracks, ${data.vias} vias, ${data.length_mm} mm`,
      `  work ${data.work}, ${data.seconds} s${data.stopped !== 'done' ? ` (stopped: ${data.stopped})` : ''}`,
      ...rules.map((r) => `  rules written beside it: ${r}`),
      '  nets:',
      ...data.nets.map((n) => `    ${n.net || '(unnamed)'}: ${n.routed} routed, ${n.open} open, ${n.tracks} tracks, ${n.vias} vias, ${n.length_mm} mm`),
    ];
    if (data.pairs.length) {
      lines.push('  differential pairs:');
      for (const p of data.pairs)
        lines.push(
          `    ${p.net} / ${p.partner}: ${p.coupled ? 'coupled' : 'single tracks'}, ${Math.round(100 * p.coupled_fraction)} % coupled${p.why ? `: ${p.why}` : ''}`,
        );
    }
    if (data.open_connections.length) {
      lines.push('  open connections:');
      for (const c of data.open_connections) {
        lines.push(`    ${c.net} ${c.from} – ${c.to}: ${c.reason}: ${c.why}`);
      }
    }
    out.stdout(lines.join('\n') + '\n');
    return 0;
  },
};
