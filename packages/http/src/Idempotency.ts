// SPEC 9 for every POST: with an `Idempotency-Key`, the first request's response is stored and repeats get it back
// instead of running again. A request that only writes to the database stores its response with its own changes, in
// one transaction. A request that calls a provider (a card acquirer, a pix or bank slip provider) must hold no
// transaction while it waits for one: it holds its key by a lease instead, records in its own transactions how far it
// got, and a repeat after it died resumes from there rather than charging again. It runs after authentication, on
// what the edge decided the request is: its principal, the route the router matched, and the body parsed once.
import { createHmac } from "node:crypto"
import { IdempotencyConflict, Unavailable } from "@fatura/api"
import {
  type Claim,
  Clock,
  CurrentIdempotentRun,
  IdempotencyFingerprintKey,
  IdempotencyLeaseSeconds,
  type IdempotencyScope,
  IdempotencyStore,
  type IdempotentRun,
  type Lease,
  LeaseLost,
  Secrets,
  Transactions
} from "@fatura/application"
import { Timestamp } from "@fatura/domain"
import { type Cause, Effect, Equal, Hash, Result } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import * as ErrorResponses from "./ErrorResponses.js"
import { stillRunning } from "./FailureResponses.js"
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

/** A keyed digest: what stands in for a card's number in a fingerprint. */
export type CardDigest = (number: string) => string

/** HMAC-SHA256 under `key`: without the key, a stored fingerprint cannot be used to test guesses of a card. */
export const cardDigest =
  (key: string): CardDigest =>
  (number) =>
    createHmac("sha256", key).update(number).digest("hex")

/**
 * Card data with its number (its digits, however spaced) replaced by a keyed digest, and its security code left out:
 * two cards are told apart — also two that show the same first six and last four digits — the number is not kept,
 * and of the security code nothing is kept in any form (it may not outlive the authorization, not even hashed), so a
 * repeat that differs only in it is the same request.
 */
const fingerprintedCard = (card: Readonly<Record<string, unknown>>, digest: CardDigest) => {
  const { number, security_code: securityCode, ...rest } = card
  if (number === undefined && securityCode === undefined) return card
  return { ...rest, number: digest(typeof number === "string" ? number.replace(/\D/g, "") : "") }
}

const isObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Whether the payload carries card data: a body's `card`, or a body that is card data itself (a tokenization). */
const carriesCard = (payload: unknown): payload is Readonly<Record<string, unknown>> =>
  isObject(payload) && ("security_code" in payload || "number" in payload || isObject(payload.card))

/**
 * The payload as it is compared between repeats: canonical JSON (key order does not matter), with card data — a
 * body's `card`, and a body that is card data itself (a card tokenization) — fingerprinted by `digest`.
 */
export const payloadFingerprint = (payload: unknown, digest: CardDigest): string => {
  if (payload === undefined) return ""
  const fingerprinted = !carriesCard(payload)
    ? payload
    : "security_code" in payload || "number" in payload
      ? fingerprintedCard(payload, digest)
      : { ...payload, card: fingerprintedCard(payload.card as Readonly<Record<string, unknown>>, digest) }
  return JSON.stringify(canonical(fingerprinted))
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

const inProgress = () => ErrorResponses.of(stillRunning())

/** What a request is told when its key is not its to run: the stored response, or why it cannot run now. */
const taken = (claim: Exclude<Claim | Lease, { readonly _tag: "Claimed" | "Leased" }>) => {
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
      return inProgress()
  }
}

export const make = Effect.gen(function* () {
  const store = yield* IdempotencyStore
  const transactions = yield* Transactions
  const leaseSeconds = yield* IdempotencyLeaseSeconds
  const configuredKey = yield* IdempotencyFingerprintKey
  // The deployment's key is read from the store by the first request with a key, and kept.
  let known: CardDigest | undefined = configuredKey === null ? undefined : cardDigest(configuredKey)
  const cardDigestOnce = Effect.suspend(() =>
    known !== undefined
      ? Effect.succeed(known)
      : Effect.map(store.fingerprintKey(Secrets.randomUrlToken()), (key) => {
          known = cardDigest(key)
          return known
        })
  )

  /** The request run in one transaction with its claim and its stored response. */
  const inTransaction = <E, R>(
    scope: IdempotencyScope,
    requestHash: string,
    next: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ) =>
    transactions.withTransaction(
      Effect.gen(function* () {
        const claim = yield* store.claim(scope, requestHash)
        switch (claim._tag) {
          case "Replay":
          case "Conflict":
          case "InProgress":
            return taken(claim)
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

  /**
   * The request run under a lease, outside any transaction. A response that is not stored, a failure or an
   * interruption ends the lease at once, keeping what the request recorded of how far it got; a holder that dies
   * keeps its key until the lease runs out. A run whose lease was taken over (it outlived it) cannot record
   * anything more, and is answered as the request in progress it has become.
   */
  const leased = <E, R>(
    scope: IdempotencyScope,
    requestHash: string,
    next: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ) =>
    Effect.gen(function* () {
      const now = yield* Clock.now
      const lease = yield* store.lease(scope, requestHash, now, Timestamp.plusSeconds(now, leaseSeconds))
      switch (lease._tag) {
        case "Replay":
        case "Conflict":
        case "InProgress":
          return taken(lease)
        case "Leased": {
          const run: IdempotentRun = {
            recoveryPoint: lease.recoveryPoint,
            checkpoint: (point) =>
              Effect.flatMap(store.checkpoint(scope, lease.token, point), (held) =>
                held ? Effect.void : Effect.fail(new LeaseLost())
              )
          }
          const release = Effect.flatMap(Clock.now, (at) => store.release(scope, lease.token, at)).pipe(
            Effect.ignore,
            Effect.uninterruptible
          )
          const response = yield* next.pipe(
            Effect.provideService(CurrentIdempotentRun, run),
            Effect.onExit((exit) => (exit._tag === "Success" ? Effect.void : release)),
            Effect.catchCause((cause) => Effect.fail(new RequestFailed(cause)))
          )
          if (!isStored(response.status)) {
            yield* release
            return response
          }
          const finished = yield* store.finish(scope, lease.token, {
            status: response.status,
            body: bodyText(response)
          })
          return finished ? response : inProgress()
        }
      }
    })

  /**
   * Runs `next` once per key for `owner` (worked out only when there is a key) on the matched route. `takesPayload`
   * says whether the route reads a body: a body it ignores is no part of what a repeat must match, and one that does
   * not decode to its payload is answered 400, which is never stored. `callsProviders` says whether the
   * route's use case calls a provider, and so runs under a lease instead of in one transaction.
   */
  return <E, R>(
    owner: Effect.Effect<Owner>,
    takesPayload: boolean,
    callsProviders: boolean,
    next: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const key = request.headers["idempotency-key"]
      if (request.method !== "POST" || key === undefined) return yield* next
      if (!keyPattern.test(key)) {
        return ErrorResponses.of(
          RequestIssues.invalidRequest([
            { path: "Idempotency-Key", message: "must be 1 to 255 printable ASCII characters" }
          ])
        )
      }
      const body = yield* RequestBody.RequestBody
      const { route, params } = yield* HttpRouter.RouteContext
      const digest = yield* Effect.result(cardDigestOnce)
      if (Result.isFailure(digest)) return unavailable()
      const payload = payloadFingerprint(takesPayload && body._tag === "Json" ? body.value : undefined, digest.success)
      const requestHash = yield* Secrets.sha256Hex(
        Object.keys(params).length === 0 ? payload : `${JSON.stringify(canonical(params))} ${payload}`
      )
      const scope: IdempotencyScope = { ...(yield* owner), endpoint: `POST ${route.path}`, key }
      return yield* (callsProviders ? leased(scope, requestHash, next) : inTransaction(scope, requestHash, next)).pipe(
        Effect.catchIf(
          (failure): failure is RequestFailed => failure instanceof RequestFailed,
          (failure) => Effect.failCause(failure.cause as Cause.Cause<E>)
        ),
        Effect.catchTag("StorageUnavailable", () => Effect.succeed(unavailable()))
      )
    })
})
