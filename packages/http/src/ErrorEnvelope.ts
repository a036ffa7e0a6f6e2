// The contract's JSON (SPEC 3) for what failed on its way to a response instead of answering: an unknown route
// (404), a path served with other methods than the request's (405 with `Allow`), a query or path that failed its
// schema (400 with `issues`), and bugs (500, logged with the request id, nothing leaked). A 401 also says which scheme
// would be accepted (SPEC 2).
import { InternalError, MethodNotAllowed } from "@fatura/api"
import { Cause, Effect, Option } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiError } from "effect/http-api"
import * as ErrorResponses from "./ErrorResponses.js"
import * as RequestIssues from "./RequestIssues.js"
import type { RouteMethods } from "./RouteMethods.js"

const isRouteNotFound = (cause: Cause.Cause<unknown>) => {
  const failure = Cause.findErrorOption(cause)
  if (Option.isNone(failure)) return false
  const error = failure.value as { readonly _tag?: string; readonly reason?: { readonly _tag?: string } }
  return error._tag === "HttpServerError" && error.reason?._tag === "RouteNotFound"
}

/** What a request no route matched gets: 405 when its path is served with other methods, else 404. */
const noRoute = (routeMethods: RouteMethods["Service"]) =>
  Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
    const allow = routeMethods.allowed(request.url)
    return allow.length === 0
      ? ErrorResponses.noSuchRoute()
      : ErrorResponses.of(
          new MethodNotAllowed({ message: `this path is served with ${allow.join(", ")} only`, allow: [...allow] })
        )
  })

/** The 400 with `issues` of a request whose payload, query or path failed the contract's schema, if that is the cause. */
const invalidRequest = (cause: Cause.Cause<unknown>) => {
  const defect = Cause.findDefect(cause)
  if (defect._tag !== "Success" || !HttpApiError.HttpApiSchemaError.is(defect.success)) return undefined
  const schemaError = defect.success
  return schemaError.kind === "Body" || schemaError.kind === "ResponseHeaders"
    ? undefined
    : ErrorResponses.of(RequestIssues.invalidRequest(RequestIssues.issuesOf(schemaError.cause)))
}

/**
 * `next`, with a request that failed the contract's schema answered 400 where the route's own middleware sees it:
 * the framework decodes inside the handler and fails with a defect, which would otherwise pass the route's idempotency,
 * response cost and card velocity by on its way out.
 */
export const answerInvalidRequest = <E, R>(
  next: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R> =>
  Effect.catchCause(next, (cause) => {
    const response = invalidRequest(cause)
    return response === undefined ? Effect.failCause(cause) : Effect.succeed(response)
  })

const responseForCause = (cause: Cause.Cause<unknown>, requestId: string, routeMethods: RouteMethods["Service"]) => {
  if (isRouteNotFound(cause)) return noRoute(routeMethods)
  const invalid = invalidRequest(cause)
  if (invalid !== undefined) return Effect.succeed(invalid)
  return Effect.logError("unhandled failure", Cause.pretty(cause)).pipe(
    Effect.as(ErrorResponses.of(new InternalError({ message: `an internal error occurred (request ${requestId})` })))
  )
}

export const wrap =
  (requestId: string, routeMethods: RouteMethods["Service"]) =>
  <E, R>(
    next: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
    next.pipe(
      Effect.catchCause((cause) =>
        Cause.hasInterruptsOnly(cause) ? Effect.failCause(cause) : responseForCause(cause, requestId, routeMethods)
      ),
      Effect.map((response) =>
        response.status === 401 ? HttpServerResponse.setHeader(response, "www-authenticate", "Bearer") : response
      )
    )
