// The OAuth2 access token of the platform's account (client credentials, RFC 6749 §4.4): asked for once and shared by
// every call, renewed shortly before it expires, and dropped when the PSP refuses it so that the next call asks anew.
import type { PixProviderUnavailable } from "@fatura/application"
import { Cache, Clock, Duration, Effect, Exit, Redacted } from "effect"
import { type HttpClient, HttpClientRequest } from "effect/http"
import { GrantedToken } from "./ApiPixAnswers.js"
import type { PixApiSettings } from "./PixApiSettings.js"
import * as PspExchange from "./PspExchange.js"

export interface AccessToken {
  /** The token to call with: the one held while it is valid, else a new one (callers at once share one request). */
  readonly current: Effect.Effect<Redacted.Redacted, PixProviderUnavailable>
  /** Forgets `token` (the PSP refused it), unless a newer one has already replaced it. */
  readonly drop: (token: Redacted.Redacted) => Effect.Effect<void>
}

/** What the grant said: the token and how long it lives. */
export interface Grant {
  readonly token: Redacted.Redacted
  readonly expiresInSeconds: number
}

/** A PSP that does not say how long its token lives (RFC 6749 only recommends it) gets this long, then a 401 renews it. */
const assumedLifetimeSeconds = 300

/**
 * How long before its end a token is renewed: a minute, or a tenth of its life when that is shorter, so that a call
 * made just before the end does not reach the PSP after it.
 */
export const renewalMarginMillis = (expiresInSeconds: number) => Math.min(60_000, (expiresInSeconds * 1000) / 10)

/** Asks the token endpoint for a token, with the client's certificate (the transport's) and HTTP Basic. */
export const requestGrant = (
  client: HttpClient.HttpClient,
  settings: PixApiSettings,
  timeout: Duration.Duration
): Effect.Effect<Grant, PixProviderUnavailable> => {
  const what = `POST ${new URL(settings.oauthUrl).pathname}`
  // RFC 6749 §2.3.1: the id and secret are form-encoded before they are joined for HTTP Basic.
  const formEncoded = (text: string) => new URLSearchParams({ _: text }).toString().slice(2)
  const request = HttpClientRequest.post(settings.oauthUrl).pipe(
    HttpClientRequest.basicAuth(
      formEncoded(settings.clientId),
      Redacted.make(formEncoded(Redacted.value(settings.clientSecret)))
    ),
    HttpClientRequest.acceptJson,
    HttpClientRequest.bodyUrlParams({ grant_type: "client_credentials" })
  )
  return PspExchange.send(client, timeout, request, what).pipe(
    // No token is no call at all, whatever the PSP said (a wrong secret, a certificate it does not know): an outage
    // of the account for the operator to mend, never a refusal of the call that needed the token.
    Effect.flatMap((answer) =>
      PspExchange.classify(answer, what)._tag === "Success"
        ? PspExchange.decode(GrantedToken, answer, what).pipe(
            // Said without the answer's text: it may hold a token.
            Effect.mapError(() =>
              PspExchange.unavailable(
                `the PSP's answer to ${what} (${answer.status}) is not an OAuth2 token (RFC 6749 §5.1)`
              )
            )
          )
        : Effect.fail(PspExchange.unusable(answer, what))
    ),
    Effect.flatMap((granted) =>
      granted.token_type.toLowerCase() === "bearer"
        ? Effect.succeed({
            token: Redacted.make(granted.access_token),
            expiresInSeconds: granted.expires_in ?? assumedLifetimeSeconds
          })
        : Effect.fail(
            PspExchange.unavailable(`the token endpoint granted a ${granted.token_type} token, not a Bearer one`)
          )
    )
  )
}

const key = "account"

/**
 * The token held for the account. Callers that need one while it is being asked for wait for that same request, and
 * share its failure too, so that a PSP that does not answer costs each of them one timeout, not one per caller ahead.
 */
export const make = (grant: Effect.Effect<Grant, PixProviderUnavailable>): Effect.Effect<AccessToken> =>
  Effect.map(
    Cache.makeWith(
      () =>
        Effect.gen(function* () {
          const askedAt = yield* Clock.currentTimeMillis
          const granted = yield* grant
          // The token's life started at the latest when it was asked for: the time the answer took is taken off.
          return { ...granted, elapsedMillis: (yield* Clock.currentTimeMillis) - askedAt }
        }),
      {
        capacity: 1,
        timeToLive: (exit) =>
          Exit.isSuccess(exit)
            ? Duration.millis(
                Math.max(
                  0,
                  exit.value.expiresInSeconds * 1000 -
                    renewalMarginMillis(exit.value.expiresInSeconds) -
                    exit.value.elapsedMillis
                )
              )
            : // A failure is not kept: the next call asks again.
              Duration.zero
      }
    ),
    (cache) => ({
      current: Effect.map(Cache.get(cache, key), (held) => held.token),
      drop: (token) => Effect.asVoid(Cache.invalidateWhen(cache, key, (held) => held.token === token))
    })
  )
