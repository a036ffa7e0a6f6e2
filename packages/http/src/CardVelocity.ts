// Card testing (SPEC 4.7): a company's public token is in every one of its checkout pages, so anyone can tokenize card
// numbers with it, from as many addresses as they have. Besides its address's limit, each tokenization counts against
// its company in its mode, which is the public token's count: a company has one public token a mode, and keeps it. (By
// company and mode, a test integration never spends what the live checkout may tokenize, and a token that replaced
// another would still be counted with it.) A tokenization that is refused — a number, expiry or security code the
// checks turn down — counts `refusedCost` times: a payer gets a card through after a mistyped digit or two, while
// someone trying stolen numbers is refused again and again. So that no one address can spend the token's count for
// every payer (a refused card every few seconds would), each address has a share of it: a fifth, counted alike, and
// one past its share is refused before it touches the token's count.
import { RateLimited } from "@fatura/api"
import type { PublicPrincipal } from "@fatura/application"
import { Context, Effect } from "effect"
import type { HttpServerResponse } from "effect/http"
import * as ErrorResponses from "./ErrorResponses.js"
import type * as RateLimiter from "./RateLimiter.js"

/** Card tokenizations a minute per public token, that is per company and mode (`FATURA_CARD_RATE_LIMIT`). */
export const CardRateLimit = Context.Reference<number>("@fatura/http/CardRateLimit", { defaultValue: () => 60 })

/** What a refused tokenization counts, in accepted ones. */
export const refusedCost = 5

/** How many addresses it takes to spend a public token's whole count. */
export const addressShare = 5

/** A minute's tokenizations at once, then one every `60 / perMinute` seconds. */
export const limitOf = (perMinute: number): RateLimiter.Limit => ({ burst: perMinute, perSecond: perMinute / 60 })

/**
 * Whether the tokenization was refused for what was sent: a 4xx, but not a 409, which says that the same
 * `Idempotency-Key` is running or was sent with another body, nothing about a card.
 */
const refused = (response: HttpServerResponse.HttpServerResponse) =>
  response.status >= 400 && response.status < 500 && response.status !== 409

/**
 * A public token's tokenizations, counted for the token and for the address they come from: `take` before one runs (a
 * `429` when the address's share or the token's count is spent, else `undefined`), `settle` once its response is
 * made, which spends `refusedCost - 1` more of both when it was refused.
 */
export const make = (limiter: RateLimiter.RateLimiter["Service"]) =>
  Effect.gen(function* () {
    const perMinute = yield* CardRateLimit
    const limit = limitOf(perMinute)
    const shareLimit = limitOf(perMinute / addressShare)
    const bucketOf = (caller: PublicPrincipal) => `card-tokens:${caller.company.id}:${caller.mode}`
    const shareOf = (caller: PublicPrincipal, address: string) => `${bucketOf(caller)}:${address}`
    const tooMany = (message: string, retryAfter: number) =>
      ErrorResponses.of(new RateLimited({ message: `${message}; try again later`, retryAfter }))
    return {
      take: (
        caller: PublicPrincipal,
        address: string
      ): Effect.Effect<HttpServerResponse.HttpServerResponse | undefined> =>
        Effect.gen(function* () {
          const share = yield* limiter.take(shareOf(caller, address), shareLimit)
          if (!share.allowed) {
            return tooMany(
              `more cards tokenized with this public token from this address than its share of ${perMinute} a minute`,
              share.retryAfterSeconds
            )
          }
          const token = yield* limiter.take(bucketOf(caller), limit)
          return token.allowed
            ? undefined
            : tooMany(
                `more than ${limit.burst} cards a minute tokenized with this public token`,
                token.retryAfterSeconds
              )
        }),
      settle: (
        caller: PublicPrincipal,
        address: string,
        response: HttpServerResponse.HttpServerResponse
      ): Effect.Effect<void> =>
        refused(response)
          ? Effect.andThen(
              limiter.spend(shareOf(caller, address), shareLimit, refusedCost - 1),
              limiter.spend(bucketOf(caller), limit, refusedCost - 1)
            )
          : Effect.void
    }
  })
