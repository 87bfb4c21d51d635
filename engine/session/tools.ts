// The handler of each tool, keyed by the same snake_case name as its schema in schemas.ts.
// `satisfies` keeps the two tables in step: a tool without a handler does not compile. Only
// route and route_connection use the call's context (progress and stop callbacks for the router).

import type { ToolArgs, ToolName } from './schemas.ts';
import type { CallContext, Session } from './session.ts';
import { check, save, stuckReport } from './tools-check.ts';
import { restore, ripNet, route, undo } from './tools-change.ts';
import { boardInfo, history, inspectNet, inspectPad, listOpen } from './tools-look.ts';
import { render } from './tools-render.ts';
import { placeVia, reserve, rip, routeConnection } from './tools-step.ts';

export const TOOL_HANDLERS = {
  board_info: (s: Session) => boardInfo(s),
  open_connections: (s: Session, a: ToolArgs<'open_connections'>) => listOpen(s, a),
  route: (s: Session, a: ToolArgs<'route'>, cx: CallContext) => route(s, a, cx),
  rip_net: (s: Session, a: ToolArgs<'rip_net'>) => ripNet(s, a),
  check: (s: Session, a: ToolArgs<'check'>) => check(s, a),
  stuck_report: (s: Session, a: ToolArgs<'stuck_report'>) => stuckReport(s, a),
  inspect_pad: (s: Session, a: ToolArgs<'inspect_pad'>) => inspectPad(s, a),
  inspect_net: (s: Session, a: ToolArgs<'inspect_net'>) => inspectNet(s, a),
  render: (s: Session, a: ToolArgs<'render'>) => render(s, a),
  history: (s: Session) => history(s),
  undo: (s: Session) => undo(s),
  restore: (s: Session, a: ToolArgs<'restore'>) => restore(s, a),
  save: (s: Session, a: ToolArgs<'save'>) => save(s, a),
  place_via: (s: Session, a: ToolArgs<'place_via'>) => placeVia(s, a),
  route_connection: (s: Session, a: ToolArgs<'route_connection'>, cx: CallContext) => routeConnection(s, a, cx),
  rip: (s: Session, a: ToolArgs<'rip'>) => rip(s, a),
  reserve: (s: Session, a: ToolArgs<'reserve'>) => reserve(s, a),
} satisfies { [N in ToolName]: (s: Session, a: ToolArgs<N>, cx: CallContext) => object | Promise<object> };
