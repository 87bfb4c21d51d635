// What the launcher may ask the host over its channel, checked by one zod schema with the caps the
// session's tools keep (engine/session/limits.ts): a bad line is answered with an error naming the
// key, never run.
import { z } from 'zod';
import { MAX_LINE_BYTES, MAX_NAME, MAX_ROUTE_NETS } from '../../engine/session/limits.ts';
import { ACTION_NAMES, type ActionName } from './actions.ts';

/** Bytes per request line the host reads, as the session's transports. */
export const MAX_REQUEST_LINE = MAX_LINE_BYTES;

/** The actions a request may name: the toolbar's, and stopping the route that runs. */
const REQUEST_ACTIONS: [ActionName | 'cancel', ...(ActionName | 'cancel')[]] = ['cancel', ...ACTION_NAMES];

const HostRequestSchema = z
  .object({
    /** The action, or "cancel": stop the route that runs. */
    action: z.enum(REQUEST_ACTIONS),
    /** Nets named on the command line (`tracemaker kicad … --nets`); default: the editor's selection. */
    nets: z.array(z.string().min(1).max(MAX_NAME)).max(MAX_ROUTE_NETS).optional(),
    /** KiCad's token from the launcher's environment. */
    token: z.string(),
    /** The launcher shows progress: the host sends progress lines before its answer. */
    progress: z.boolean().optional(),
  })
  .strict();

/** What the launcher sends: the action, optional nets, KiCad's token, and whether it shows progress. */
export type HostRequest = z.infer<typeof HostRequestSchema>;

/** Checks a request line from the channel: the request, or the sentence saying what is wrong. */
export function parseRequest(line: string): HostRequest | string {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return 'the request is not JSON';
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'the request must be a JSON object';
  const r = HostRequestSchema.safeParse(v);
  if (r.success) {
    const { progress, ...rest } = r.data;
    return progress ? { ...rest, progress } : rest;
  }
  const issue = r.error.issues[0];
  if (issue.code === 'unrecognized_keys') return `unknown key "${issue.keys[0].slice(0, 40)}"`;
  const key = String(issue.path[0] ?? 'request');
  if (key === 'action') return `"action" must be one of ${[...ACTION_NAMES, 'cancel'].join(', ')}`;
  if (key === 'token') return '"token" must be a string';
  if (key === 'progress') return '"progress" must be true or false';
  return `"nets" must be a list of at most ${MAX_ROUTE_NETS} net names, each 1 to ${MAX_NAME} characters`;
}
