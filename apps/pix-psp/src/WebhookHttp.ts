// `PUT|GET|DELETE /webhook/{chave}`: where the PSP notifies the pix it receives for the client's pix key. The key
// must be the client's own (the one the PSP printed as FATURA_PIX_KEY).
import { Effect, Layer, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { guarded } from "./ApiAccess.js"
import * as Problem from "./Problem.js"
import { PspSettings } from "./PspSettings.js"
import { PspState } from "./PspState.js"
import * as Violations from "./Violations.js"
import { type Webhook, Webhooks } from "./Webhooks.js"

const HttpUrl = Schema.String.check(
  Schema.makeFilter(
    (text: string) => {
      try {
        return ["http:", "https:"].includes(new URL(text).protocol)
      } catch {
        return false
      }
    },
    { expected: "an absolute http or https URL" }
  )
)
const decodeWebhookBody = Schema.decodeUnknownEffect(Schema.Struct({ webhookUrl: HttpUrl }))

const invalidWebhook = (violacoes: ReadonlyArray<Problem.Violation>) =>
  Problem.invalid(
    "WebhookOperacaoInvalida",
    "Webhook inválido.",
    "A presente requisição busca criar um webhook sem respeitar o _schema_ ou, ainda, com sentido semanticamente inválido.",
    violacoes
  )

const notFound = (chave: string) => Problem.notFound("WebhookNaoEncontrado", `Nenhum webhook para a chave ${chave}.`)

const put = guarded(
  "webhook.write",
  Effect.gen(function* () {
    const chave = (yield* HttpRouter.params).chave ?? ""
    const { credentials } = yield* PspState
    if (chave !== credentials.pixKey) {
      return invalidWebhook([
        { razao: "A chave não pertence a este usuário recebedor.", propriedade: "chave", valor: chave }
      ])
    }
    const request = yield* HttpServerRequest.HttpServerRequest
    const body = yield* Effect.option(request.json)
    if (Option.isNone(body)) return invalidWebhook([{ razao: "O corpo da requisição não é um JSON." }])
    const decoded = yield* Effect.result(decodeWebhookBody(body.value))
    if (decoded._tag === "Failure") return invalidWebhook(Violations.fromSchemaError(decoded.failure, "webhook"))
    yield* (yield* Webhooks).set(chave, decoded.success.webhookUrl)
    return HttpServerResponse.empty({ status: 200 })
  })
)

const webhookBody = (webhook: Webhook, cnpj: string) => ({
  webhookUrl: webhook.webhookUrl,
  chave: webhook.chave,
  cnpj,
  criacao: new Date(webhook.criacao).toISOString()
})

const get = guarded(
  "webhook.read",
  Effect.gen(function* () {
    const chave = (yield* HttpRouter.params).chave ?? ""
    const { merchantCnpj } = yield* PspSettings
    return Option.match(yield* (yield* Webhooks).find(chave), {
      onNone: () => notFound(chave),
      onSome: (webhook) => HttpServerResponse.jsonUnsafe(webhookBody(webhook, merchantCnpj))
    })
  })
)

const remove = guarded(
  "webhook.write",
  Effect.gen(function* () {
    const chave = (yield* HttpRouter.params).chave ?? ""
    const removed = yield* (yield* Webhooks).remove(chave)
    return removed ? HttpServerResponse.empty({ status: 204 }) : notFound(chave)
  })
)

export const path = "/webhook/:chave"

export const layer = Layer.mergeAll(
  HttpRouter.add("PUT", path, put),
  HttpRouter.add("GET", path, get),
  HttpRouter.add("DELETE", path, remove)
)
