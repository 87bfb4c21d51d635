// The handler of each tool, keyed by the same snake_case name as its schema in schemas.ts.
// `satisfies` keeps the tables in step: a tool without a handler, or a handler whose answer is
// not its tool's result type (results.ts), does not compile. Only route and route_connection use
// the call's context (progress and stop callbacks for the router).

import type { ToolResults } from './results.ts';
import type { ToolArgs, ToolName } from './schemas.ts';
import type { CallContext, SessionState } from './session-state.ts';
import { check, save, stuckReport } from './tools-check.ts';
import { restore, ripNet, route, undo } from './tools-change.ts';
import { boardInfo, history, inspectNet, inspectPad, listOpen } from './tools-look.ts';
import { render } from './tools-render.ts';
import { placeVia, reserve, rip, routeConnection } from './tools-step.ts';

export const TOOL_HANDLERS = {
  board_info: (s: SessionState) => boardInfo(s),
  open_connections: (s: SessionState, a: ToolArgs<'open_connections'>) => listOpen(s, a),
  route: (s: SessionState, a: ToolArgs<'route'>, cx: CallContext) => route(s, a, cx),
  rip_net: (s: SessionState, a: ToolArgs<'rip_net'>) => ripNet(s, a),
  check: (s: SessionState, a: ToolArgs<'check'>) => check(s, a),
  stuck_report: (s: SessionState, a: ToolArgs<'stuck_report'>) => stuckReport(s, a),
  inspect_pad: (s: SessionState, a: ToolArgs<'inspect_pad'>) => inspectPad(s, a),
  inspect_net: (s: SessionState, a: ToolArgs<'inspect_net'>) => inspectNet(s, a),
  render: (s: SessionState, a: ToolArgs<'render'>) => render(s, a),
  history: (s: SessionState) => history(s),
  undo: (s: SessionState) => undo(s),
  restore: (s: SessionState, a: ToolArgs<'restore'>) => restore(s, a),
  save: (s: SessionState, a: ToolArgs<'save'>) => save(s, a),
  place_via: (s: SessionState, a: ToolArgs<'place_via'>) => placeVia(s, a),
  route_connection: (s: SessionState, a: ToolArgs<'route_connection'>, cx: CallContext) => routeConnection(s, a, cx),
  rip: (s: SessionState, a: ToolArgs<'rip'>) => rip(s, a),
  reserve: (s: SessionState, a: ToolArgs<'reserve'>) => reserve(s, a),
} satisfies { [N in ToolName]: (s: SessionState, a: ToolArgs<N>, cx: CallContext) => ToolResults[N] | Promise<ToolResults[N]> };
