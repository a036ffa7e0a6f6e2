// The edge in front of every route, in the order a request meets it: its id; its access log line and metrics; the
// contract's JSON for whatever fails; then the request target, judged once before the router matches a route.
// The rest — the query, the body, who the request acts as, its rate limit, its idempotency — is judged by
// `RouteAccess`, once the route is known: a path no route answers is a 404 whatever it carries, and a path served
// with other methods a 405.
import { Effect } from "effect"
import { HttpRouter } from "effect/http"
import * as AccessLog from "./AccessLog.js"
import * as ErrorEnvelope from "./ErrorEnvelope.js"
import * as RequestIds from "./RequestIds.js"
import * as RequestTarget from "./RequestTarget.js"
import { RouteMethods } from "./RouteMethods.js"

export const layer = HttpRouter.middleware(
  Effect.gen(function* () {
    const routeMethods = yield* RouteMethods
    return (router) =>
      RequestIds.tag((requestId) =>
        AccessLog.record(ErrorEnvelope.wrap(requestId, routeMethods)(RequestTarget.check(router)))
      )
  }),
  { global: true }
)
