// Card testing (SPEC 4.7): a company's public token is in every one of its checkout pages, so anyone can tokenize card
// numbers with it, from as many addresses as they have. Besides its address's limit, each tokenization counts against
// the public token it uses and against that token's company — across the company's tokens: its test and its live one,
// and one that replaced a revoked one. A tokenization that is refused (a number, expiry or security code the checks
// turn down) counts `refusedCost` times: a payer gets a card through after a mistyped digit or two, while someone
// trying stolen numbers is refused again and again.
import { RateLimited } from "@fatura/api"
import { type PublicPrincipal, Secrets } from "@fatura/application"
import { Context, Effect } from "effect"
import type { HttpServerResponse } from "effect/http"
import * as ErrorResponses from "./ErrorResponses.js"
import type * as RateLimiter from "./RateLimiter.js"

/**
 * Card tokenizations a minute per public token (`FATURA_CARD_RATE_LIMIT`), in bursts of as many; a company may make
 * twice as many across its tokens.
 */
export const CardRateLimit = Context.Reference<number>("@fatura/http/CardRateLimit", { defaultValue: () => 60 })

/** What a refused tokenization counts, in accepted ones. */
export const refusedCost = 5

export const limitsOf = (perMinute: number) => ({
  token: { burst: perMinute, perSecond: perMinute / 60 } satisfies RateLimiter.Limit,
  // Room for a test token and a live one each at its limit, and no more for a token that replaced a revoked one.
  company: { burst: 2 * perMinute, perSecond: (2 * perMinute) / 60 } satisfies RateLimiter.Limit
})

/**
 * Whether the tokenization was refused for what was sent: a 4xx, but not a 409, which says that the same
 * `Idempotency-Key` is running or was sent with another body, nothing about a card.
 */
const refused = (response: HttpServerResponse.HttpServerResponse) =>
  response.status >= 400 && response.status < 500 && response.status !== 409

/**
 * Runs a tokenization with `publicToken`, which authenticated as `caller`, within the token's and its company's limits: a `429` when either is spent, else the
 * tokenization, which spends `refusedCost - 1` more from both when it is refused.
 */
export const make = (limiter: RateLimiter.RateLimiter["Service"]) =>
  Effect.gen(function* () {
    const limits = limitsOf(yield* CardRateLimit)
    return <E, R>(
      publicToken: string,
      caller: PublicPrincipal,
      run: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
    ) =>
      Effect.gen(function* () {
        const buckets = [
          // By the token's hash, as it is known everywhere else: a token that replaced a revoked one has a bucket of
          // its own.
          {
            name: `card-token:${yield* Secrets.sha256Hex(publicToken)}`,
            limit: limits.token,
            of: "with this public token"
          },
          { name: `card-company:${caller.company.id}`, limit: limits.company, of: "for this company" }
        ]
        for (const bucket of buckets) {
          const decision = yield* limiter.take(bucket.name, bucket.limit)
          if (!decision.allowed) {
            return ErrorResponses.of(
              new RateLimited({
                message: `too many cards tokenized ${bucket.of}; try again later`,
                retryAfter: decision.retryAfterSeconds
              })
            )
          }
        }
        const response = yield* run
        if (refused(response)) {
          yield* Effect.forEach(buckets, (bucket) => limiter.spend(bucket.name, bucket.limit, refusedCost - 1), {
            discard: true
          })
        }
        return response
      })
  })
