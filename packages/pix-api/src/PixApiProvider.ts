// The application's PixProvider over the API Pix of one PSP account: immediate charges (`cob`) under a txid derived
// from the invoice, the pix received (`pix`), their returns (`devolucao`) and the webhook, each call with the account's
// OAuth2 token over mutual TLS, and every failure to get a usable answer told as PixProviderUnavailable.
import { PixProvider, type PixProviderUnavailable, type PixReturnRequest, type ReceivedPix } from "@fatura/application"
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

    /** A call whose answer is read by `read` when it is a success, and none when the PSP says it has no such thing. */
    const find = <A>(
      path: string,
      read: (answer: PspExchange.Answer, what: string) => Effect.Effect<A, PixProviderUnavailable>
    ): Effect.Effect<Option.Option<A>, PixProviderUnavailable> => {
      const what = `GET ${path}`
      return Effect.flatMap(authorized(request("GET", path), what), (answer) =>
        PspExchange.isSuccess(answer)
          ? Effect.map(read(answer, what), Option.some)
          : PspExchange.isNotFound(answer)
            ? Effect.succeed(Option.none())
            : Effect.fail(PspExchange.refused(answer, what))
      )
    }

    const put = <A>(
      path: string,
      body: unknown,
      read: (answer: PspExchange.Answer, what: string) => Effect.Effect<A, PixProviderUnavailable>
    ): Effect.Effect<A, PixProviderUnavailable> => {
      const what = `PUT ${path}`
      return Effect.flatMap(authorized(request("PUT", path, body), what), (answer) =>
        PspExchange.isSuccess(answer) ? read(answer, what) : Effect.fail(PspExchange.refused(answer, what))
      )
    }

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
      const path = `/pix?${query.toString()}`
      const what = `GET /pix (page ${page})`
      return Effect.flatMap(authorized(request("GET", path), what), (answer) =>
        PspExchange.isSuccess(answer)
          ? PspExchange.decode(ApiPixAnswers.PixPage, answer, what)
          : Effect.fail(PspExchange.refused(answer, what))
      )
    }

    const logged = <A>(effect: Effect.Effect<A, PixProviderUnavailable>) =>
      Effect.tapError(effect, (error) => Effect.logWarning(`pix provider (API Pix) unavailable: ${error.message}`))

    return PixProvider.of({
      txidOf,

      charge: (charge) =>
        put(
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
        put(
          returnPath(endToEndId, returnId),
          {
            valor: PixAmount.fromCents(amount),
            ...(reason === null || reason === "" ? {} : { descricao: cut(reason, 140) })
          },
          readReturn
        ).pipe(logged),

      findReturn: (endToEndId, returnId) => find(returnPath(endToEndId, returnId), readReturn).pipe(logged),

      registerWebhook: (url) =>
        put(`/webhook/${segment(settings.pixKey)}`, { webhookUrl: url }, () => Effect.void).pipe(logged)
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
