// The calls of the API Pix as the provider makes them: each sent with the account's OAuth2 token (renewed once when
// the PSP answers 401), its answer judged by `PspExchange.classify`, and read the way the call needs — a lookup takes
// the PSP's 404 for "none", a call that acts on what it names takes it for a refusal. No usable answer is
// PixProviderUnavailable; a definite refusal PixProviderRefused.
import {
  type PixProviderFailure,
  PixProviderRefused,
  type PixProviderUnavailable,
  type ProviderCharge
} from "@fatura/application"
import { type Duration, Effect, Option, type Redacted } from "effect"
import { type HttpClient, HttpClientRequest } from "effect/http"
import * as AccessToken from "./AccessToken.js"
import * as ApiPixAnswers from "./ApiPixAnswers.js"
import type { PixApiSettings } from "./PixApiSettings.js"
import * as PspExchange from "./PspExchange.js"

export type Method = "GET" | "PUT" | "PATCH"

/** Reads a successful answer; `what` names the call in messages. */
export type Read<A> = (answer: PspExchange.Answer, what: string) => Effect.Effect<A, PixProviderUnavailable>

/** An answer judged: the call it was (`what`) and what it means. */
export interface Judged {
  readonly what: string
  readonly verdict: Exclude<PspExchange.Verdict, { readonly _tag: "Unavailable" }>
}

export interface PspCalls {
  /**
   * Sends a request and judges its answer (`PspExchange.classify`); no usable answer is PixProviderUnavailable.
   * `what` names the call in messages: its method and path unless said.
   */
  readonly judged: (
    method: Method,
    path: string,
    body?: unknown,
    what?: string
  ) => Effect.Effect<Judged, PixProviderUnavailable>
  /** A lookup: none when the PSP says it has no such thing (its 404); any other refusal is PixProviderRefused. */
  readonly find: <A>(path: string, read: Read<A>) => Effect.Effect<Option.Option<A>, PixProviderFailure>
  /**
   * A call that acts on what it names, or lists: a 404 (an unknown pix to return) is as definite a refusal as any
   * other 4xx.
   */
  readonly must: <A>(
    method: Method,
    path: string,
    body: unknown,
    read: Read<A>,
    what?: string
  ) => Effect.Effect<A, PixProviderFailure>
}

/** What `GET /cob/{txid}` and `GET /cobv/{txid}` answer, as the port's charge. */
export const readCharge: Read<ProviderCharge> = (answer, what) =>
  Effect.map(PspExchange.decode(ApiPixAnswers.Charge, answer, what), ApiPixAnswers.toProviderCharge)

/** A path segment, encoded. */
export const segment = encodeURIComponent

/** At most `length` characters (code points, so that no character is cut in two). */
export const cut = (text: string, length: number) => Array.from(text).slice(0, length).join("")

/** The refusal of a call, with the PSP's words as its reason. */
export const refusal = (what: string, status: number, reason: string) =>
  new PixProviderRefused({ message: `the PSP refused ${what} (${status}): ${reason}`, reason })

/** The refusal an answer that is no success stands for, a 404 among them. */
export const refusalOf = (
  what: string,
  verdict: Extract<PspExchange.Verdict, { readonly _tag: "NotFound" | "Refused" }>
) => refusal(what, verdict._tag === "Refused" ? verdict.status : 404, verdict.reason)

/** A refusal is logged as an error: one the PSP repeats for every call is a setting of the account to fix. */
export const logged = <A>(effect: Effect.Effect<A, PixProviderFailure>) =>
  Effect.tapError(effect, (error) =>
    error._tag === "PixProviderRefused"
      ? Effect.logError(`pix provider (API Pix) refused: ${error.message}`)
      : Effect.logWarning(`pix provider (API Pix) unavailable: ${error.message}`)
  )

/** The calls of the account `settings` name, through `client`, each exchange given `timeout`. */
export const make = (
  settings: PixApiSettings,
  client: HttpClient.HttpClient,
  timeout: Duration.Duration
): Effect.Effect<PspCalls> =>
  Effect.gen(function* () {
    const apiUrl = settings.apiUrl.replace(/\/+$/, "")
    const send = (request: HttpClientRequest.HttpClientRequest, what: string) =>
      PspExchange.send(client, timeout, request, what)
    const token = yield* AccessToken.make(AccessToken.requestGrant(client, settings, timeout))

    /**
     * Sends an API Pix request with the account's token. A 401 means the PSP no longer takes the token (revoked,
     * expired early, the PSP restarted): it is dropped and the request sent once more with a new one.
     */
    const authorized = (request: HttpClientRequest.HttpClientRequest, what: string) => {
      const withToken = (bearer: Redacted.Redacted) => send(HttpClientRequest.bearerToken(request, bearer), what)
      return Effect.gen(function* () {
        const bearer = yield* token.current
        const answer = yield* withToken(bearer)
        if (answer.status !== 401) return answer
        yield* token.drop(bearer)
        return yield* withToken(yield* token.current)
      })
    }

    const request = (method: Method, path: string, body?: unknown) => {
      const base = HttpClientRequest.make(method)(`${apiUrl}${path}`).pipe(HttpClientRequest.acceptJson)
      return body === undefined ? base : HttpClientRequest.bodyJsonUnsafe(base, body)
    }

    const judged = (method: Method, path: string, body?: unknown, what = `${method} ${path}`) =>
      Effect.flatMap(authorized(request(method, path, body), what), (answer) => {
        const verdict = PspExchange.classify(answer, what)
        return verdict._tag === "Unavailable" ? Effect.fail(verdict.error) : Effect.succeed({ what, verdict })
      })

    const find = <A>(path: string, read: Read<A>): Effect.Effect<Option.Option<A>, PixProviderFailure> =>
      Effect.flatMap(judged("GET", path), ({ what, verdict }): Effect.Effect<Option.Option<A>, PixProviderFailure> => {
        switch (verdict._tag) {
          case "Success":
            return Effect.map(read(verdict.answer, what), Option.some)
          case "NotFound":
            return Effect.succeed(Option.none())
          case "Refused":
            return Effect.fail(refusalOf(what, verdict))
        }
      })

    const must = <A>(
      method: Method,
      path: string,
      body: unknown,
      read: Read<A>,
      what?: string
    ): Effect.Effect<A, PixProviderFailure> =>
      Effect.flatMap(
        judged(method, path, body, what),
        ({ what, verdict }): Effect.Effect<A, PixProviderFailure> =>
          verdict._tag === "Success" ? read(verdict.answer, what) : Effect.fail(refusalOf(what, verdict))
      )

    return { judged, find, must }
  })
