// SPEC 9 for every POST: with an `Idempotency-Key`, the first request's response is stored with the
// request's own changes, in one transaction, and repeats get it back instead of running again.
import { Authentication, Clock, IdempotencyStore, Secrets, Transactions } from "@fatura/application"
import { type Cause, Effect, Equal, Hash, Option } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"

const keyPattern = /^[\x20-\x7E]{1,255}$/

/** Statuses whose response a repeat gets back; 400, 409, 429 and 5xx let the repeat run anew (SPEC 9). */
export const isStored = (status: number) =>
  (status >= 200 && status < 300) || (status >= 400 && status < 500 && ![400, 409, 429].includes(status))

const canonical = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(canonical)
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])])
    )
  }
  return value
}

/**
 * The body as canonical JSON, with the card number and security code reduced to what is shown of a card:
 * the stored hash must not become a way to recover them.
 */
export const requestFingerprint = (body: string): string => {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return body
  }
  if (typeof parsed === "object" && parsed !== null && "card" in parsed) {
    const card = (parsed as { card: unknown }).card
    if (typeof card === "object" && card !== null) {
      const { number, security_code, ...rest } = card as Record<string, unknown>
      const digits = typeof number === "string" ? number.replace(/\D/g, "") : ""
      ;(parsed as { card: unknown }).card = {
        ...rest,
        number: `${digits.slice(0, 6)}…${digits.slice(-4)}/${digits.length}`,
        security_code: typeof security_code === "string" ? security_code.length : null
      }
    }
  }
  return JSON.stringify(canonical(parsed))
}

/**
 * How a failure of the wrapped request (an unknown route, a body that is not JSON, a defect) crosses the
 * transaction: untouched. Effect compares failures structurally when it combines causes, and a router failure
 * holds the request, whose getters parse the body — throwing, for a body that is not JSON.
 */
class RequestFailed {
  constructor(readonly cause: Cause.Cause<unknown>) {}
  [Hash.symbol]() {
    return Hash.random(this)
  }
  [Equal.symbol](that: unknown) {
    return this === that
  }
}

const errorResponse = (status: number, code: string, message: string) =>
  HttpServerResponse.jsonUnsafe({ code, message }, { status })

const unavailable = () => errorResponse(503, "unavailable", "the service is temporarily unavailable")

const bodyText = (response: HttpServerResponse.HttpServerResponse) =>
  response.body._tag === "Uint8Array" ? new TextDecoder().decode(response.body.body) : ""

export const make = Effect.gen(function* () {
  const store = yield* IdempotencyStore
  const transactions = yield* Transactions
  const authentication = yield* Authentication

  const companyOf = (request: HttpServerRequest.HttpServerRequest) => {
    const authorization = request.headers.authorization ?? ""
    const secretKey = authorization.startsWith("Bearer ") ? authorization.slice(7).trim() : ""
    // A refused key has no company (the handler answers 401 or 403); a database that cannot say is not a refusal:
    // running the request without its key would let a repeat run it twice.
    return authentication.authenticate(secretKey).pipe(
      Effect.map((principal) => Option.some(principal.companyId)),
      Effect.catchTags({
        Unauthenticated: () => Effect.succeed(Option.none()),
        CompanyBlocked: () => Effect.succeed(Option.none())
      })
    )
  }

  return <E, R>(
    httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const key = request.headers["idempotency-key"]
      if (request.method !== "POST" || key === undefined) return yield* httpEffect
      if (!keyPattern.test(key)) {
        return HttpServerResponse.jsonUnsafe(
          {
            code: "invalid_request",
            message: "Idempotency-Key: must be 1 to 255 printable ASCII characters",
            issues: [{ path: "Idempotency-Key", message: "must be 1 to 255 printable ASCII characters" }]
          },
          { status: 400 }
        )
      }
      // Without a company there is nothing to scope the key to: the request fails authentication anyway.
      const found = yield* Effect.option(companyOf(request))
      if (Option.isNone(found)) return unavailable()
      const companyId = found.value
      if (Option.isNone(companyId)) return yield* httpEffect

      const scope = { companyId: companyId.value, endpoint: `POST ${request.url.split("?")[0]}`, key }
      const body = yield* request.text.pipe(Effect.orElseSucceed(() => ""))
      const requestHash = yield* Secrets.sha256Hex(requestFingerprint(body))
      // The claim, the request's changes and its stored response share one transaction: a request that fails,
      // or dies with its process, leaves the key free, and one that commits leaves its response.
      return yield* transactions
        .withTransaction(
          Effect.gen(function* () {
            const claim = yield* store.claim(scope, requestHash)
            switch (claim._tag) {
              case "Replay":
                return HttpServerResponse.text(claim.response.body, {
                  status: claim.response.status,
                  contentType: "application/json",
                  headers: { "idempotent-replayed": "true" }
                })
              case "Conflict":
                return errorResponse(
                  409,
                  "idempotency_conflict",
                  "this Idempotency-Key was used with another request body"
                )
              case "InProgress":
                return errorResponse(
                  409,
                  "idempotency_in_progress",
                  "a request with this Idempotency-Key is still running"
                )
              case "Claimed": {
                const response = yield* httpEffect.pipe(
                  Effect.catchCause((cause) => Effect.fail(new RequestFailed(cause)))
                )
                if (isStored(response.status)) {
                  yield* store.complete(
                    scope,
                    requestHash,
                    { status: response.status, body: bodyText(response) },
                    yield* Clock.now
                  )
                }
                return response
              }
            }
          })
        )
        .pipe(
          Effect.catchIf(
            (failure): failure is RequestFailed => failure instanceof RequestFailed,
            (failure) => Effect.failCause(failure.cause as Cause.Cause<E>)
          ),
          Effect.catchTag("StorageUnavailable", () => Effect.succeed(unavailable()))
        )
    })
})
