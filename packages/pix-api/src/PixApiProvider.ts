// The application's PixProvider over the API Pix of one PSP account: immediate charges (`cob`) under a txid derived
// from the invoice, the pix received (`pix`), their returns (`devolucao`) and the webhook, each call with the account's
// OAuth2 token over mutual TLS. Every answer is judged by `PspExchange.classify`: a definite refusal is
// PixProviderRefused, and every failure to get a usable answer PixProviderUnavailable.
import {
  PixProvider,
  type PixProviderFailure,
  PixProviderRefused,
  type PixProviderUnavailable,
  type PixReturnRequest,
  type ReceivedPix
} from "@fatura/application"
import type { Timestamp } from "@fatura/domain"
import { Effect, Layer, Option, type Redacted } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import * as AccessToken from "./AccessToken.js"
import * as ApiPixAnswers from "./ApiPixAnswers.js"
import * as PixAmount from "./PixAmount.js"
import { defaultPageSize, defaultTimeout, type PixApiSettings } from "./PixApiSettings.js"
import * as PixApiTransport from "./PixApiTransport.js"
import * as PspExchange from "./PspExchange.js"

export interface LayerOptions {
  /**
   * Wraps the client every exchange goes through, the token's included: for a test that records the exchanges, or
   * a program that adds its own logging or metrics. The client it is given already speaks mutual TLS.
   */
  readonly transformClient?: (client: HttpClient.HttpClient) => HttpClient.HttpClient
}

/** The txid of an invoice's charge: its secureId (a UUID) without dashes, 32 letters and digits as the API Pix asks. */
export const txidOf = (secureId: string): string => secureId.replaceAll("-", "")

/** At most `length` characters (code points, so that no character is cut in two). */
const cut = (text: string, length: number) => Array.from(text).slice(0, length).join("")

const segment = encodeURIComponent

const make = (settings: PixApiSettings, options: LayerOptions) =>
  Effect.gen(function* () {
    const transport = yield* HttpClient.HttpClient
    const client = options.transformClient === undefined ? transport : options.transformClient(transport)
    const timeout = settings.timeout ?? defaultTimeout
    const pageSize = settings.pageSize ?? defaultPageSize
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

    const request = (method: "GET" | "PUT", path: string, body?: unknown) => {
      const base = HttpClientRequest.make(method)(`${apiUrl}${path}`).pipe(HttpClientRequest.acceptJson)
      return body === undefined ? base : HttpClientRequest.bodyJsonUnsafe(base, body)
    }

    /**
     * Sends a request and judges its answer (`PspExchange.classify`); no usable answer is PixProviderUnavailable.
     * `what` names the call in messages: its method and path unless said.
     */
    const judged = (method: "GET" | "PUT", path: string, body?: unknown, what = `${method} ${path}`) =>
      Effect.flatMap(authorized(request(method, path, body), what), (answer) => {
        const verdict = PspExchange.classify(answer, what)
        return verdict._tag === "Unavailable" ? Effect.fail(verdict.error) : Effect.succeed({ what, verdict })
      })

    const refusal = (what: string, status: number, reason: string) =>
      new PixProviderRefused({ message: `the PSP refused ${what} (${status}): ${reason}`, reason })

    type Read<A> = (answer: PspExchange.Answer, what: string) => Effect.Effect<A, PixProviderUnavailable>

    /** A lookup: none when the PSP says it has no such thing (its 404); any other refusal is PixProviderRefused. */
    const find = <A>(path: string, read: Read<A>): Effect.Effect<Option.Option<A>, PixProviderFailure> =>
      Effect.flatMap(judged("GET", path), ({ what, verdict }): Effect.Effect<Option.Option<A>, PixProviderFailure> => {
        switch (verdict._tag) {
          case "Success":
            return Effect.map(read(verdict.answer, what), Option.some)
          case "NotFound":
            return Effect.succeed(Option.none())
          case "Refused":
            return Effect.fail(refusal(what, verdict.status, verdict.reason))
        }
      })

    /**
     * A call that acts on what it names, or lists: a 404 (an unknown pix to return) is as definite a refusal as any
     * other 4xx.
     */
    const must = <A>(
      method: "GET" | "PUT",
      path: string,
      body: unknown,
      read: Read<A>,
      what?: string
    ): Effect.Effect<A, PixProviderFailure> =>
      Effect.flatMap(
        judged(method, path, body, what),
        ({ what, verdict }): Effect.Effect<A, PixProviderFailure> =>
          verdict._tag === "Success"
            ? read(verdict.answer, what)
            : Effect.fail(refusal(what, verdict._tag === "NotFound" ? 404 : verdict.status, verdict.reason))
      )

    const readReturn = (answer: PspExchange.Answer, what: string) =>
      Effect.flatMap(PspExchange.decode(ApiPixAnswers.PixReturn, answer, what), (pixReturn) => {
        const state = ApiPixAnswers.toReturnState(pixReturn)
        return state === undefined
          ? Effect.fail(PspExchange.unavailable(`the PSP's answer to ${what} is DEVOLVIDO without any time`))
          : Effect.succeed(state)
      })

    const returnPath = (endToEndId: string, returnId: string) =>
      `/pix/${segment(endToEndId)}/devolucao/${segment(returnId)}`

    const listPage = (from: Timestamp.Timestamp, to: Timestamp.Timestamp, page: number) => {
      const query = new URLSearchParams({
        inicio: from,
        fim: to,
        "paginacao.paginaAtual": String(page),
        "paginacao.itensPorPagina": String(pageSize)
      })
      return must(
        "GET",
        `/pix?${query.toString()}`,
        undefined,
        (answer, what) => PspExchange.decode(ApiPixAnswers.PixPage, answer, what),
        `GET /pix (page ${page})`
      )
    }

    /** A refusal is logged as an error: one the PSP repeats for every call is a setting of the account to fix. */
    const logged = <A>(effect: Effect.Effect<A, PixProviderFailure>) =>
      Effect.tapError(effect, (error) =>
        error._tag === "PixProviderRefused"
          ? Effect.logError(`pix provider (API Pix) refused: ${error.message}`)
          : Effect.logWarning(`pix provider (API Pix) unavailable: ${error.message}`)
      )

    return PixProvider.of({
      txidOf,

      charge: (charge) =>
        must(
          "PUT",
          `/cob/${segment(charge.txid)}`,
          {
            calendario: { expiracao: Math.max(1, Math.round(charge.expiresIn)) },
            devedor: {
              [charge.payer.document.type]: charge.payer.document.number,
              nome: cut(charge.payer.name, 200)
            },
            valor: { original: PixAmount.fromCents(charge.amount) },
            // The platform's key: the account's, not the company's, since the money comes to the platform.
            chave: settings.pixKey,
            ...(charge.summary === "" ? {} : { solicitacaoPagador: cut(charge.summary, 140) })
          },
          (answer, what) =>
            Effect.map(PspExchange.decode(ApiPixAnswers.CreatedCharge, answer, what), (created) => ({
              qrCode: created.pixCopiaECola
            }))
        ).pipe(logged),

      findCharge: (txid) =>
        find(`/cob/${segment(txid)}`, (answer, what) =>
          Effect.map(PspExchange.decode(ApiPixAnswers.Charge, answer, what), ApiPixAnswers.toProviderCharge)
        ).pipe(logged),

      findReceived: (endToEndId) =>
        find(`/pix/${segment(endToEndId)}`, (answer, what) =>
          Effect.map(PspExchange.decode(ApiPixAnswers.Pix, answer, what), ApiPixAnswers.toReceivedPix)
        ).pipe(logged),

      listReceived: (from, to) =>
        Effect.gen(function* () {
          const received = new Map<string, ReceivedPix>()
          // Pages are asked for one after another until the PSP says there are no more (or one comes back empty,
          // so that a PSP counting its pages wrong cannot keep the loop going).
          for (let page = 0; ; page++) {
            const answer = yield* listPage(from, to, page)
            const pix = answer.pix ?? []
            // A pix received while the pages are read may push one seen already onto the next page.
            for (const one of pix) received.set(one.endToEndId, ApiPixAnswers.toReceivedPix(one))
            if (pix.length === 0 || page + 1 >= answer.parametros.paginacao.quantidadeDePaginas) break
          }
          return [...received.values()]
        }).pipe(logged),

      requestReturn: ({ endToEndId, returnId, amount, reason }: PixReturnRequest) =>
        must(
          "PUT",
          returnPath(endToEndId, returnId),
          {
            valor: PixAmount.fromCents(amount),
            ...(reason === null || reason === "" ? {} : { descricao: cut(reason, 140) })
          },
          readReturn
        ).pipe(logged),

      findReturn: (endToEndId, returnId) => find(returnPath(endToEndId, returnId), readReturn).pipe(logged),

      registerWebhook: (url) =>
        must("PUT", `/webhook/${segment(settings.pixKey)}`, { webhookUrl: url }, () => Effect.void).pipe(logged)
    })
  })

/**
 * The PixProvider of the PSP account `settings` name, over mutual TLS (`PixApiTransport`). Fails to build, with
 * `PemFileUnreadable`, when a PEM file of the settings cannot be used; the PSP itself is first called by the first
 * call of the provider.
 */
export const layer = (
  settings: PixApiSettings,
  options: LayerOptions = {}
): Layer.Layer<PixProvider, PixApiTransport.PemFileUnreadable> =>
  Layer.effect(PixProvider, make(settings, options)).pipe(Layer.provide(PixApiTransport.layer(settings)))
