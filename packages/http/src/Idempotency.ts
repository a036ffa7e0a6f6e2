// SPEC 9 for every POST: with an `Idempotency-Key`, the first request's response is stored with the request's own
// changes, in one transaction, and repeats get it back instead of running again. It runs after authentication, on
// what the edge decided the request is: its principal, the route the router matched, and the body parsed once.
import { IdempotencyConflict, Unavailable } from "@fatura/api"
import { Clock, type IdempotencyScope, IdempotencyStore, Secrets, Transactions } from "@fatura/application"
import { type Cause, Effect, Equal, Hash } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import * as ErrorResponses from "./ErrorResponses.js"
import * as RequestBody from "./RequestBody.js"
import * as RequestIssues from "./RequestIssues.js"

const keyPattern = /^[\x20-\x7E]{1,255}$/

/** Statuses whose response a repeat gets back; 400, 409, 429 and 5xx let the repeat run anew (SPEC 9). */
const isStored = (status: number) =>
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

/** Card data reduced to what is shown of a card: the stored hash must not become a way to recover it. */
const maskedCard = (card: Readonly<Record<string, unknown>>) => {
  const { number, security_code, ...rest } = card
  const digits = typeof number === "string" ? number.replace(/\D/g, "") : ""
  return {
    ...rest,
    number: `${digits.slice(0, 6)}…${digits.slice(-4)}/${digits.length}`,
    security_code: typeof security_code === "string" ? security_code.length : null
  }
}

const isObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * The payload as it is compared between repeats: canonical JSON (key order does not matter), with card data masked —
 * a body's `card`, and a body that is card data itself (a card tokenization, which carries a `security_code`).
 */
export const payloadFingerprint = (payload: unknown): string => {
  if (payload === undefined) return ""
  const masked = !isObject(payload)
    ? payload
    : "security_code" in payload
      ? maskedCard(payload)
      : isObject(payload.card)
        ? { ...payload, card: maskedCard(payload.card) }
        : payload
  return JSON.stringify(canonical(masked))
}

/**
 * How a failure of the wrapped request (a query that fails its schema, a defect) crosses the transaction: untouched.
 * Effect compares failures structurally when it combines causes, and a failure may hold whatever the request carried
 * (a schema failure holds its input), which no hash or equality should walk.
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

const conflict = (code: IdempotencyConflict["code"], message: string) =>
  ErrorResponses.of(new IdempotencyConflict({ code, message }))

const unavailable = () =>
  ErrorResponses.of(new Unavailable({ code: "unavailable", message: "the service is temporarily unavailable" }))

const bodyText = (response: HttpServerResponse.HttpServerResponse) =>
  response.body._tag === "Uint8Array" ? new TextDecoder().decode(response.body.body) : ""

/** Who sent the request, for the scope of its key. */
export interface Owner {
  readonly principal: string
  readonly companyId: IdempotencyScope["companyId"]
}

export const make = Effect.gen(function* () {
  const store = yield* IdempotencyStore
  const transactions = yield* Transactions

  /**
   * Runs `next` once per key for `owner` (worked out only when there is a key) on the matched route. `takesPayload`
   * says whether the route reads a body: a body it reads but cannot decode is answered 400 by the route, which is
   * never stored, and a body it ignores is no part of what a repeat must match.
   */
  return <E, R>(
    owner: Effect.Effect<Owner>,
    takesPayload: boolean,
    next: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const key = request.headers["idempotency-key"]
      if (request.method !== "POST" || key === undefined) return yield* next
      if (!keyPattern.test(key)) {
        return ErrorResponses.of(
          RequestIssues.invalidRequest(
            [{ path: "Idempotency-Key", message: "must be 1 to 255 printable ASCII characters" }],
            ""
          )
        )
      }
      const body = yield* RequestBody.RequestBody
      if (takesPayload && body._tag === "Refused") return yield* next
      const { route, params } = yield* HttpRouter.RouteContext
      const payload = takesPayload && body._tag === "Json" ? payloadFingerprint(body.value) : ""
      const requestHash = yield* Secrets.sha256Hex(
        Object.keys(params).length === 0 ? payload : `${JSON.stringify(canonical(params))} ${payload}`
      )
      const scope: IdempotencyScope = { ...(yield* owner), endpoint: `POST ${route.path}`, key }
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
                return conflict("idempotency_conflict", "this Idempotency-Key was used with another request")
              case "InProgress":
                return conflict("idempotency_in_progress", "a request with this Idempotency-Key is still running")
              case "Claimed": {
                const response = yield* next.pipe(Effect.catchCause((cause) => Effect.fail(new RequestFailed(cause))))
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
