// The edge in front of every route, in the order a request meets it: its id; its access log line and metrics; the
// contract's JSON for whatever fails; then the request target and the body, each judged once before the router
// matches a route. What the router matched is judged by `RouteAccess`, around the route itself.
import { HttpRouter } from "effect/http"
import * as AccessLog from "./AccessLog.js"
import * as ErrorEnvelope from "./ErrorEnvelope.js"
import * as RequestBody from "./RequestBody.js"
import * as RequestIds from "./RequestIds.js"
import * as RequestTarget from "./RequestTarget.js"

export const layer = HttpRouter.middleware(
  (router) =>
    RequestIds.tag((requestId) =>
      AccessLog.record(ErrorEnvelope.wrap(requestId)(RequestTarget.check(RequestBody.read(router))))
    ),
  { global: true }
)
