// Opens a session on a board file for the session, relay and agent commands: loads the design,
// gives the session its ports (the router, the writer, the one output file, the PNG rasteriser)
// and, with --log, appends each call to the log. All file access of a session lives here.
// `sessionPorts` is also what the KiCad host gives its session, so both route, check and write
// the same way.

import { appendFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { addCopper } from '../engine/kicad/write-board.ts';
import { DEFAULT_WORK_CAP } from '../engine/route/index.ts';
import { sessionDrc } from '../engine/session/drc-summary.ts';
import { LogWriter } from '../engine/session/log.ts';
import { type CallRecord, Session, type SessionPorts } from '../engine/session/session.ts';
import { readDesignFiles, writeRulesBeside } from './design-files.ts';
import { loadDesign, type DesignFiles } from '../engine/kicad/load.ts';
import type { Design } from '../engine/board/design.ts';
import { routeDefaults, routePort } from './session-route.ts';
import { rasterise } from './rasterise.ts';

export interface SessionFiles {
  board: string;
  /** The only file `save` writes. */
  out: string;
  log?: string;
  workLimit?: number;
  /** Threads for a route's variants; default by the board's size, as `tracemaker route` picks
   *  (the saved bytes do not depend on it). */
  threads?: number;
  /** Where the router's and the session's own text goes (stderr). */
  diagnostics(text: string): void;
}

export interface OpenedSession {
  session: Session;
  boardText: string;
}

export interface PortOptions {
  /** Where `save` puts the board text (and what it wrote beside it). */
  save: SessionPorts['save'];
  /** Told about internal failures (bugs), with their stack. */
  internalError(tool: string, e: unknown): void;
  threads?: number;
}

/**
 * The ports of a session over `design`, loaded from `files`: the router on the worker pool with
 * the board's defaults, engine/drc, the writer of `tracemaker route` and resvg for PNG pictures.
 */
export function sessionPorts(design: Design, files: DesignFiles, o: PortOptions): SessionPorts {
  return {
    route: routePort(files, { threads: o.threads }),
    defaultWork: DEFAULT_WORK_CAP,
    defaultVariants: (whole) => routeDefaults(design.board, { whole }).variants,
    write: (d, copper) => addCopper(d.board, copper.tracks, copper.vias),
    drc: (d, copper, opts) => sessionDrc(d, copper, opts.full, opts.softZones),
    save: o.save,
    rasterise,
    internalError: o.internalError,
  };
}

export function openSession(f: SessionFiles): OpenedSession {
  const files = readDesignFiles(f.board);
  const design = loadDesign(files);
  const ports = sessionPorts(design, files, {
    threads: f.threads,
    // The board's rules go beside the output, as `tracemaker route --out` writes them, so KiCad
    // and `tracemaker drc` judge the saved board by them; never over rule files already there.
    save: (text) => {
      writeFileSync(f.out, text);
      return { rulesWritten: writeRulesBeside(f.out, files).map((p) => basename(p)) };
    },
    internalError: (tool, e) => f.diagnostics(`tracemaker session: ${tool}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`),
  });
  let onRecord: ((r: CallRecord) => void) | undefined;
  if (f.log) {
    const log = new LogWriter(files.board, f.workLimit);
    writeFileSync(f.log, log.header + '\n');
    const path = f.log;
    onRecord = (r) => appendFileSync(path, log.line(r) + '\n');
  }
  const session = new Session(design, ports, { boardName: basename(f.board), workLimit: f.workLimit }, onRecord);
  return { session, boardText: files.board };
}
