// The application's PixProvider over the API Pix of one PSP account: immediate charges (`cob`) and charges with a due
// date (`cobv`, DueCharges) under a txid derived from the invoice, the pix received (`pix`), their returns
// (`devolucao`) and the webhook, each call with the account's OAuth2 token over mutual TLS (PspCalls). Every answer is
// judged by `PspExchange.classify`: a definite refusal is PixProviderRefused, and every failure to get a usable answer
// PixProviderUnavailable.
import { PixProvider, type PixReturnRequest, type ReceivedPix } from "@fatura/application"
import type { Timestamp } from "@fatura/domain"
import { Effect, Layer, Option } from "effect"
import { HttpClient } from "effect/http"
import * as ApiPixAnswers from "./ApiPixAnswers.js"
import * as DueCharges from "./DueCharges.js"
import * as PixAmount from "./PixAmount.js"
import { defaultPageSize, defaultTimeout, type PixApiSettings } from "./PixApiSettings.js"
import * as PixApiTransport from "./PixApiTransport.js"
import { cut, logged, make as makeCalls, readCharge, segment } from "./PspCalls.js"
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

const make = (settings: PixApiSettings, options: LayerOptions) =>
  Effect.gen(function* () {
    const transport = yield* HttpClient.HttpClient
    const client = options.transformClient === undefined ? transport : options.transformClient(transport)
    const pageSize = settings.pageSize ?? defaultPageSize
    const calls = yield* makeCalls(settings, client, settings.timeout ?? defaultTimeout)
    const { find, must } = calls

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

      dueCharges: DueCharges.make(settings, calls),

      // One txid names one charge, immediate or with a due date: the PSP that has no immediate one is asked for the
      // other.
      findCharge: (txid) =>
        find(`/cob/${segment(txid)}`, readCharge).pipe(
          Effect.flatMap((found) =>
            Option.isSome(found) ? Effect.succeed(found) : find(`/cobv/${segment(txid)}`, readCharge)
          ),
          logged
        ),

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
