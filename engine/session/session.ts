// A session: its state (session-state.ts) and the one entry every call goes through: `dispatch`
// as transports receive calls, `call` for code that names its tool (typed). It validates
// arguments against the tool table, serialises calls, turns ToolErrors into error values, counts
// work against the session's limit, hands a route's progress and stop callbacks to the route
// port, and reports each call (with the digests of its result and of the state) to an optional
// log sink. The router, the DRC and the PNG rasteriser come in as ports.

import { fnv1a64 } from './digest.ts';
import { type ErrorValue, ToolError, errorValue } from './errors.ts';
import type { RouteDoneResult, RouteEstimateResult, ToolAnswer } from './results.ts';
import { type ToolInput, type ToolName, isToolName, parseArgs, unknownTool } from './schemas.ts';
import { type CallContext, type CallOptions, LOOK_TOOLS, SessionState } from './session-state.ts';
import { TOOL_HANDLERS } from './tools.ts';

export type { CallContext, CallOptions, CallRecord, DrcSummary, LastRoute, SessionOptions, SessionPorts, StateNote } from './session-state.ts';

export class Session extends SessionState {
  #queue: Promise<unknown> = Promise.resolve();

  /**
   * Runs one tool call and answers that tool's result type (or an error value). Calls run one at
   * a time in the order they arrive, whichever transport sent them.
   */
  call(tool: 'route', args: ToolInput<'route'> & { estimate: true }, opts?: CallOptions): Promise<RouteEstimateResult | ErrorValue>;
  call(tool: 'route', args: ToolInput<'route'> & { estimate?: false }, opts?: CallOptions): Promise<RouteDoneResult | ErrorValue>;
  call<N extends ToolName>(tool: N, args: NoInfer<ToolInput<N>>, opts?: CallOptions): Promise<ToolAnswer<N>>;
  call(tool: ToolName, args: unknown, opts: CallOptions = {}): Promise<object> {
    return this.dispatch(tool, args, opts);
  }

  /**
   * A call as a transport receives it, tool name and arguments checked only at run time; never
   * throws for a caller's mistake in `tool` or `args`. `record: false` on a tool outside
   * LOOK_TOOLS is the calling code's bug and rejects.
   */
  dispatch(tool: string, args: unknown, opts: CallOptions = {}): Promise<object> {
    if (opts.record === false && !LOOK_TOOLS.has(tool)) {
      return Promise.reject(new TypeError(`Session.call: record: false is only for tools that change nothing, got ${JSON.stringify(tool)}`));
    }
    const run = this.#queue.then(() => this.#call(tool, args, opts));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #call(tool: string, args: unknown, opts: CallOptions): Promise<object> {
    let result: object;
    try {
      if (!isToolName(tool)) throw unknownTool(tool);
      const parsed = parseArgs(tool, args);
      const cx: CallContext = { onProgress: opts.onProgress, shouldStop: opts.shouldStop };
      result = await (TOOL_HANDLERS[tool] as (s: SessionState, a: unknown, cx: CallContext) => object | Promise<object>)(this, parsed, cx);
    } catch (e) {
      if (!(e instanceof ToolError)) this.ports.internalError?.(tool, e);
      result = toErrorValue(e, tool);
    }
    if (opts.record === false) return result;
    const state = this.states.current;
    this.lastRecord = { tool, args: args ?? {}, result: resultDigest(result), state: state.id, state_digest: state.digest };
    this.onRecord?.(this.lastRecord);
    return result;
  }
}

function toErrorValue(e: unknown, tool: string): ErrorValue {
  if (e instanceof ToolError) return errorValue(e.code, e.message);
  // A bug or a broken port: report it as failed without its text, which may quote board data.
  const what = e instanceof Error ? e.name : 'error';
  return errorValue('failed', `${isToolName(tool) ? tool : 'call'}: internal ${what}; the state is unchanged`);
}

/** Keys of a result that tell of the files beside the output, not of the session: which rule
 *  files save wrote depends on what already lay there, so a replay to another path (or into a
 *  folder that has them) must still match. */
const OUTSIDE_KEYS: ReadonlySet<string> = new Set(['rules_written']);

/** Digest of a result as sent (JSON text), without what tells of files outside the session. */
export function resultDigest(result: object): string {
  return fnv1a64(JSON.stringify(result, (k, v) => (OUTSIDE_KEYS.has(k) ? undefined : v)));
}

export type { ToolName };
