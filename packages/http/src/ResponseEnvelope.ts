// What every request gets, whatever answered it: an access log line and an `X-Request-Id` (SPEC 1, 11.2),
// `WWW-Authenticate` on 401s (SPEC 2), the limits of SPEC 10 (rate limits per key and per client address, body size,
// JSON nesting and string sizes), and the contract's JSON error body for failures that never reached a handler —
// malformed or invalid requests (400 with `issues`), unknown routes (404) and bugs (500, logged, nothing leaked).
import type { ErrorIssue } from "@fatura/api"
import { Cause, Clock, Effect, Option, type Schema, SchemaIssue } from "effect"
import { HttpIncomingMessage, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiError } from "effect/http-api"
import * as ClientRateLimit from "./ClientRateLimit.js"
import * as HttpMetrics from "./HttpMetrics.js"
import * as Idempotency from "./Idempotency.js"
import * as RequestLimits from "./RequestLimits.js"

const saneRequestId = /^[A-Za-z0-9._-]{1,128}$/

const requestIdOf = (request: HttpServerRequest.HttpServerRequest): string => {
  const given = request.headers["x-request-id"]
  return given !== undefined && saneRequestId.test(given) ? given : crypto.randomUUID()
}

// Messages never echo the input: a request may carry a card number or a CVV, which no response repeats.
const withoutInput = (message: string) =>
  message.startsWith("Invalid data ") ? "is invalid" : message.replace(/, got [\s\S]*$/, "")

const formatter = SchemaIssue.makeFormatterStandardSchemaV1({
  leafHook: (issue) => (issue._tag === "MissingKey" ? "is required" : withoutInput(SchemaIssue.defaultLeafHook(issue))),
  checkHook: (issue) => {
    const message = SchemaIssue.defaultCheckHook(issue)
    return message === undefined ? undefined : withoutInput(message)
  }
})

const pathOf = (path: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }>) =>
  path.map((segment) => String(typeof segment === "object" ? segment.key : segment)).join(".")

/** One `issues` entry per problem, with dotted paths, from a schema failure. */
export const issuesOf = (error: Schema.SchemaError): ReadonlyArray<ErrorIssue> =>
  formatter(error.issue).issues.map((issue) => ({
    path: pathOf(issue.path ?? []),
    message: issue.message
  }))

const errorBody = (status: number, body: Record<string, unknown>) => HttpServerResponse.jsonUnsafe(body, { status })

const invalidRequest = (issues: ReadonlyArray<ErrorIssue>, fallback: string) => {
  const first = issues[0]
  const message = first === undefined ? fallback : first.path === "" ? first.message : `${first.path}: ${first.message}`
  return errorBody(400, { code: "invalid_request", message, issues })
}

const isRouteNotFound = (cause: Cause.Cause<unknown>) => {
  const failure = Cause.findErrorOption(cause)
  if (Option.isNone(failure)) return false
  const error = failure.value as { readonly _tag?: string; readonly reason?: { readonly _tag?: string } }
  return error._tag === "HttpServerError" && error.reason?._tag === "RouteNotFound"
}

const responseForCause = (cause: Cause.Cause<unknown>, requestId: string) => {
  if (isRouteNotFound(cause)) return Effect.succeed(errorBody(404, { code: "not_found", message: "no such route" }))
  const failure = Cause.findErrorOption(cause)
  if (Option.isSome(failure)) {
    const error = failure.value as { readonly _tag?: string; readonly reason?: { readonly _tag?: string } }
    if (error._tag === "HttpServerError" && error.reason?._tag === "RequestParseError") {
      return Effect.succeed(
        (error.reason as { readonly reason?: string }).reason === "BodyTooLarge"
          ? payloadTooLarge
          : invalidRequest([], "the request body could not be read")
      )
    }
  }
  const defect = Cause.findDefect(cause)
  if (defect._tag === "Success" && HttpApiError.HttpApiSchemaError.is(defect.success)) {
    const schemaError = defect.success
    if (schemaError.kind !== "Body" && schemaError.kind !== "ResponseHeaders") {
      const where = schemaError.kind === "Payload" ? "body" : schemaError.kind.toLowerCase()
      return Effect.succeed(invalidRequest(issuesOf(schemaError.cause), `the request ${where} is invalid`))
    }
  }
  return Effect.logError("unhandled failure", Cause.pretty(cause)).pipe(
    Effect.as(errorBody(500, { code: "internal_error", message: `an internal error occurred (request ${requestId})` }))
  )
}

const hasBody = (request: HttpServerRequest.HttpServerRequest) => {
  const length = request.headers["content-length"]
  return (length !== undefined && length !== "0") || request.headers["transfer-encoding"] !== undefined
}

/** A POST that carries a body must say it is JSON (SPEC 3: 415); a POST without one (exchange-token) needs nothing. */
const hasNonJsonBody = (request: HttpServerRequest.HttpServerRequest) => {
  if (request.method !== "POST") return false
  const contentType = request.headers["content-type"]?.split(";")[0]?.trim().toLowerCase()
  return hasBody(request) && contentType !== "application/json"
}

const unsupportedMediaType = () =>
  errorBody(415, { code: "unsupported_media_type", message: "send the body as Content-Type: application/json" })

const payloadTooLarge = HttpServerResponse.setHeader(
  errorBody(413, {
    code: "payload_too_large",
    message: `the request body is over ${RequestLimits.maxBodyBytes} bytes`
  }),
  "connection",
  "close"
)

/** A body announced over the limit is refused before a byte of it is read. */
const announcesTooLarge = (request: HttpServerRequest.HttpServerRequest) => {
  const length = Number(request.headers["content-length"] ?? 0)
  return length > RequestLimits.maxBodyBytes
}

/**
 * A JSON body is read once here (at most {@link RequestLimits.maxBodyBytes}, else 413) and checked for nesting and
 * string sizes before any schema sees it; the handler's own read reuses the bytes. Malformed JSON is left to the
 * decoder's 400.
 */
const withinBodyLimits = <E, R>(
  request: HttpServerRequest.HttpServerRequest,
  next: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
) =>
  request.method !== "POST" || !hasBody(request)
    ? next
    : request.text.pipe(
        Effect.flatMap((text) => {
          let parsed: unknown
          try {
            parsed = JSON.parse(text)
          } catch {
            return next
          }
          const issue = RequestLimits.checkJson(parsed)
          return issue === undefined ? next : Effect.succeed(invalidRequest([issue], "the request body is invalid"))
        }),
        Effect.provideService(HttpIncomingMessage.MaxBodySize, RequestLimits.maxBodySize)
      )

/** The API key a request presents, if any: what the per-key rate limit counts by. */
const bearerOf = (request: HttpServerRequest.HttpServerRequest) => {
  const authorization = request.headers.authorization
  return authorization?.startsWith("Bearer ") ? authorization.slice(7).trim() : undefined
}

/** The path without its query string: queries may carry tokens, which never reach a log. */
const withoutQuery = (url: string) => url.split("?")[0] ?? url

/** The payer's side is open to anyone: it is limited per client address. */
const isPublic = (url: string) => url.startsWith("/api/v2/public/") || url.startsWith("/checkout/")

const tooMany = (message: string, retryAfterSeconds: number) =>
  HttpServerResponse.setHeader(
    errorBody(429, { code: "rate_limited", message }),
    "retry-after",
    String(retryAfterSeconds)
  )

export const layer = HttpRouter.middleware(
  Effect.gen(function* () {
    const idempotent = yield* Idempotency.make
    const perKey = yield* RequestLimits.KeyRateLimit
    const limitPublic = ClientRateLimit.make(ClientRateLimit.publicLimit)
    const limitKey = ClientRateLimit.make({ burst: perKey * 2, perSecond: perKey })
    /** A 429 when the request is over its rate limit: per client address on the payer's side, per key elsewhere. */
    const overLimit = (request: HttpServerRequest.HttpServerRequest, nowMs: number) => {
      if (isPublic(request.url)) {
        const decision = limitPublic(
          Option.getOrElse(request.remoteAddress, () => "unknown"),
          nowMs
        )
        return decision.allowed
          ? undefined
          : tooMany("too many requests from this address; try again later", decision.retryAfterSeconds)
      }
      const key = bearerOf(request)
      if (key === undefined) return undefined
      const decision = limitKey(key, nowMs)
      return decision.allowed
        ? undefined
        : tooMany(`more than ${perKey} requests a second with this key; try again later`, decision.retryAfterSeconds)
    }
    return (httpEffect) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const requestId = requestIdOf(request)
        const started = yield* Clock.currentTimeMillis
        const limited = overLimit(request, started)
        const handled =
          limited !== undefined
            ? Effect.succeed(limited)
            : hasNonJsonBody(request)
              ? Effect.succeed(unsupportedMediaType())
              : announcesTooLarge(request)
                ? Effect.succeed(payloadTooLarge)
                : withinBodyLimits(request, idempotent(httpEffect))
        let matched = true
        const answered = yield* handled.pipe(
          Effect.catchCause((cause) => {
            if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause)
            matched = !isRouteNotFound(cause)
            return responseForCause(cause, requestId)
          }),
          Effect.annotateLogs({ requestId })
        )
        // The API's own 415 (a declared non-JSON content type without a body) is plain text: answer the contract's.
        const response = answered.status === 415 ? unsupportedMediaType() : answered
        const durationMs = (yield* Clock.currentTimeMillis) - started
        const path = withoutQuery(request.url)
        yield* Effect.logInfo("request").pipe(
          Effect.annotateLogs({ requestId, method: request.method, route: path, status: response.status, durationMs })
        )
        yield* HttpMetrics.record(
          request.method,
          matched ? HttpMetrics.routeOf(path) : HttpMetrics.unmatched,
          response.status,
          durationMs / 1000
        )
        const withId = HttpServerResponse.setHeader(response, "x-request-id", requestId)
        return response.status === 401 ? HttpServerResponse.setHeader(withId, "www-authenticate", "Bearer") : withId
      })
  }),
  { global: true }
)
