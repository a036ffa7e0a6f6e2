// One log line and one metrics sample for every request, whatever answered it (SPEC 11.1, 11.2), labelled by the route
// the router matched — or `unmatched` — never by anything the client wrote. The line also says how many bytes of the
// body the edge read and parsed: none for a request refused on its headers.
import { Clock, Context, Effect, LogLevel, References } from "effect"
import { HttpServerRequest, type HttpServerResponse } from "effect/http"
import * as HttpMetrics from "./HttpMetrics.js"

/**
 * Where the route stage leaves the route it matched for the access log, which wraps the router and so cannot see the
 * route itself. Each request gets its own.
 */
export const MatchedRoute = Context.Reference<{ route: string | undefined }>("@fatura/http/MatchedRoute", {
  defaultValue: () => ({ route: undefined })
})

/** Where `RequestBody` leaves the size of the body it read and parsed, for the log line. Each request gets its own. */
export const ParsedBody = Context.Reference<{ bytes: number }>("@fatura/http/ParsedBody", {
  defaultValue: () => ({ bytes: 0 })
})

/** The path in the log, without its query (which may carry a checkout token), and cut short. */
const loggedPath = (url: string) => {
  const queryStart = url.indexOf("?")
  return (queryStart === -1 ? url : url.slice(0, queryStart)).slice(0, 256)
}

/**
 * `next` with its line and its sample, written when it answers (an answer it fails with is the edge's to write). Few
 * fiber steps on every request: the references and the clock read once from the fiber, the metrics updated in place,
 * and the line's effect built only when its level is logged (the default, info).
 */
export const record = <E, R>(
  next: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.withFiber((fiber) => {
    const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
    const clock = fiber.getRef(Clock.Clock)
    const started = clock.currentTimeMillisUnsafe()
    const logged = !LogLevel.isGreaterThan(fiber.getRef(References.MinimumLogLevel), "Info")
    const matched: { route: string | undefined } = { route: undefined }
    const parsed = { bytes: 0 }
    return next.pipe(
      Effect.updateContext((context: Context.Context<R>) =>
        Context.add(Context.add(context, MatchedRoute, matched), ParsedBody, parsed)
      ),
      Effect.flatMap((response) => {
        const durationMs = clock.currentTimeMillisUnsafe() - started
        const route = matched.route ?? HttpMetrics.unmatched
        HttpMetrics.recordUnsafe(fiber.context, request.method, route, response.status, durationMs / 1000)
        if (!logged) return Effect.succeed(response)
        return Effect.as(
          Effect.annotateLogs(Effect.logInfo("request"), {
            method: request.method,
            route,
            path: loggedPath(request.url),
            status: response.status,
            parsedBodyBytes: parsed.bytes,
            durationMs
          }),
          response
        )
      })
    )
  })
