// Every response carries `X-Request-Id` (SPEC 1), and every log line of its request too: the caller's value when it
// sent a sane one, else a new one.
import { Effect } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"

const saneRequestId = /^[A-Za-z0-9._-]{1,128}$/

const requestIdOf = (request: HttpServerRequest.HttpServerRequest): string => {
  const given = request.headers["x-request-id"]
  return given !== undefined && saneRequestId.test(given) ? given : crypto.randomUUID()
}

export const tag = <E, R>(
  next: (requestId: string) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const requestId = requestIdOf(request)
    return next(requestId).pipe(
      Effect.annotateLogs({ requestId }),
      Effect.map((response) => HttpServerResponse.setHeader(response, "x-request-id", requestId))
    )
  })
