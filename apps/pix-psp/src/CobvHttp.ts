// `PUT`, `GET` and `PATCH /cobv/{txid}`: the client creates a charge with a due date under its own txid, reads it back
// and removes it. A repeated PUT with the same terms answers the charge as it is (clients retry with the same txid);
// different terms revise an ATIVA charge (`revisao` + 1, same location) and are refused once it is not ATIVA, as is a
// txid that names an immediate charge (the spec's `CobVOperacaoInvalida`). PATCH removes an ATIVA charge (status
// REMOVIDA_PELO_USUARIO_RECEBEDOR alone); a charge no longer ATIVA is not altered, as the spec says, and other
// revisions are made by PUT.
import { Clock, Effect, Layer, Option, Predicate, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { guarded } from "./ApiAccess.js"
import * as ChargeRequests from "./ChargeRequests.js"
import { Charges, type CobvTerms, isOfKind } from "./Charges.js"
import * as CobvWire from "./CobvWire.js"
import * as DueDates from "./DueDates.js"
import * as Money from "./Money.js"
import * as Problem from "./Problem.js"
import { PspSettings } from "./PspSettings.js"
import { PspState } from "./PspState.js"
import { PublicAddress } from "./PublicAddress.js"
import { ReceivedPixes } from "./ReceivedPix.js"
import * as Violations from "./Violations.js"

const { text } = ChargeRequests

/** `CobVSolicitada`, as far as this PSP takes it: the debtor is required, with a CPF or a CNPJ. */
const CobvRequest = Schema.Struct({
  calendario: Schema.Struct({
    dataDeVencimento: DueDates.CalendarDate,
    validadeAposVencimento: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)))
  }),
  devedor: Schema.Struct({
    ...ChargeRequests.debtorFields,
    email: Schema.optionalKey(Schema.String),
    logradouro: Schema.optionalKey(text(200)),
    cidade: Schema.optionalKey(text(200)),
    uf: Schema.optionalKey(text(2)),
    cep: Schema.optionalKey(text(8))
  }),
  loc: Schema.optionalKey(Schema.Unknown),
  valor: Schema.Struct({
    original: Money.Amount,
    multa: Schema.optionalKey(Schema.Unknown),
    juros: Schema.optionalKey(Schema.Unknown),
    abatimento: Schema.optionalKey(Schema.Unknown),
    desconto: Schema.optionalKey(Schema.Unknown)
  }),
  chave: text(77),
  solicitacaoPagador: Schema.optionalKey(text(140)),
  infoAdicionais: Schema.optionalKey(ChargeRequests.InfoAdicionais)
})
const decodeCobvRequest = Schema.decodeUnknownEffect(CobvRequest)

/** The spec's default: payable for 30 days after the due date. */
const defaultValidity = 30

const invalidCobv = (detail: string, violacoes: ReadonlyArray<Problem.Violation>) =>
  Problem.invalid("CobVOperacaoInvalida", "Cobrança inválida.", detail, violacoes)

const schemaDetail = "A requisição que busca alterar ou criar uma cobrança com vencimento não respeita o _schema_."
const semanticDetail = "A cobrança com vencimento está semanticamente errada."

const notFound = (txid: string) =>
  Problem.notFound("CobVNaoEncontrada", `Nenhuma cobrança com vencimento com o txid ${txid}.`)

/** The terms of a request the schema took, or what the spec says is wrong with them; `createdOn` is its São Paulo day. */
const termsOf = (request: typeof CobvRequest.Type, pixKey: string, createdOn: string) => {
  const violations = [...ChargeRequests.sharedViolations(request, "cobv", pixKey)]
  for (const adjustment of ["multa", "juros", "abatimento", "desconto"] as const) {
    if (request.valor[adjustment] !== undefined) {
      violations.push({
        razao: "Este PSP não aplica multa, juros, abatimento nem desconto.",
        propriedade: `cobv.valor.${adjustment}`
      })
    }
  }
  if (request.calendario.dataDeVencimento < createdOn) {
    violations.push({
      razao: `A data de vencimento é anterior à data de criação da cobrança (${createdOn}).`,
      propriedade: "cobv.calendario.dataDeVencimento",
      valor: request.calendario.dataDeVencimento
    })
  }
  if (violations.length > 0) return { violations }
  const terms: CobvTerms = {
    kind: "cobv",
    dataDeVencimento: request.calendario.dataDeVencimento,
    validadeAposVencimento: request.calendario.validadeAposVencimento ?? defaultValidity,
    devedor: request.devedor,
    original: Money.toCents(request.valor.original),
    chave: request.chave,
    ...(request.solicitacaoPagador === undefined ? {} : { solicitacaoPagador: request.solicitacaoPagador }),
    ...(request.infoAdicionais === undefined ? {} : { infoAdicionais: request.infoAdicionais })
  }
  return { terms }
}

/** The client's view of a charge: the address it is reached at, and the settings that name the client. */
const clientView = Effect.gen(function* () {
  const { authority } = yield* PublicAddress
  return { authority, settings: yield* PspSettings }
})

/** The charge with a due date under `txid`: none for a txid without one, or that names an immediate charge. */
const findCobv = (txid: string) =>
  Effect.map(
    Charges.use((charges) => charges.find(txid)),
    Option.filter((charge) => isOfKind(charge, "cobv"))
  )

const put = guarded(
  "cobv.write",
  Effect.gen(function* () {
    const txid = (yield* HttpRouter.params).txid ?? ""
    const badTxid = ChargeRequests.txidViolations(txid)
    if (badTxid.length > 0) return invalidCobv(schemaDetail, badTxid)
    const request = yield* HttpServerRequest.HttpServerRequest
    const body = yield* Effect.option(request.json)
    if (Option.isNone(body)) return invalidCobv("O corpo da requisição não é um JSON.", [])
    const decoded = yield* Effect.result(decodeCobvRequest(body.value))
    if (decoded._tag === "Failure") {
      return invalidCobv(schemaDetail, Violations.fromSchemaError(decoded.failure, "cobv"))
    }
    const { credentials } = yield* PspState
    const charges = yield* Charges
    // A revision is held to the day the charge was created, not to today: a retry after its due date is the same PUT.
    const existing = yield* charges.find(txid)
    const createdAt = Option.isSome(existing) ? existing.value.criacao : yield* Clock.currentTimeMillis
    const checked = termsOf(decoded.success, credentials.pixKey, DueDates.saoPauloDate(createdAt))
    if ("violations" in checked) return invalidCobv(semanticDetail, checked.violations)
    const view = yield* clientView
    return yield* charges.put(txid, checked.terms).pipe(
      Effect.map(({ charge }) => HttpServerResponse.jsonUnsafe(CobvWire.cobv(charge, view), { status: 201 })),
      Effect.catchTags({
        ChargeNotActive: (refused) =>
          Effect.succeed(
            invalidCobv("A cobrança já existe, não está ATIVA, e a presente requisição busca alterá-la.", [
              { razao: `A cobrança está ${refused.status}.`, propriedade: "cobv.status", valor: refused.status }
            ])
          ),
        TxidTaken: (taken) => Effect.succeed(invalidCobv(semanticDetail, [ChargeRequests.takenViolation(taken)]))
      })
    )
  })
)

const get = guarded(
  "cobv.read",
  Effect.gen(function* () {
    const txid = (yield* HttpRouter.params).txid ?? ""
    const found = yield* findCobv(txid)
    if (Option.isNone(found)) return notFound(txid)
    const charge = found.value
    const search = yield* HttpServerRequest.ParsedSearchParams
    const asked = typeof search.revisao === "string" ? search.revisao : undefined
    if (asked !== undefined && !(/^\d+$/.test(asked) && Number(asked) < charge.revisions.length)) {
      return Problem.invalid("CobVConsultaInvalida", "Consulta inválida.", "A revisão pedida não existe.", [
        { razao: "Revisão inexistente para esta cobrança.", propriedade: "revisao", valor: asked }
      ])
    }
    const pix = (yield* (yield* ReceivedPixes).all).filter((received) => received.txid === txid)
    const view = yield* clientView
    return HttpServerResponse.jsonUnsafe(
      CobvWire.cobv(charge, { ...view, pix, ...(asked === undefined ? {} : { revisao: Number(asked) }) })
    )
  })
)

const removal = "REMOVIDA_PELO_USUARIO_RECEBEDOR"

/** What is wrong with a PATCH's body, for this PSP that only removes by PATCH; nothing for `{ "status": removal }`. */
const patchViolations = (body: unknown): ReadonlyArray<Problem.Violation> => {
  if (!Predicate.isObject(body)) return [{ razao: "O corpo é um objeto JSON (CobVRevisada).", propriedade: "cobv" }]
  const { status, ...others } = body
  if (status === undefined) {
    return [
      {
        razao: "Este PSP só remove cobranças por PATCH; uma cobrança com vencimento é revisada por PUT /cobv/{txid}.",
        propriedade: "cobv"
      }
    ]
  }
  if (status !== removal) {
    return [{ razao: `O status pedido só pode ser ${removal}.`, propriedade: "cobv.status", valor: String(status) }]
  }
  if (Object.keys(others).length > 0) {
    return [
      {
        razao: "Não se remove uma cobrança ao mesmo tempo em que se propõem outras alterações.",
        propriedade: `cobv.${Object.keys(others).join(", cobv.")}`
      }
    ]
  }
  return []
}

const patch = guarded(
  "cobv.write",
  Effect.gen(function* () {
    const txid = (yield* HttpRouter.params).txid ?? ""
    const request = yield* HttpServerRequest.HttpServerRequest
    const body = yield* Effect.option(request.json)
    if (Option.isNone(body)) return invalidCobv("O corpo da requisição não é um JSON.", [])
    const violations = patchViolations(body.value)
    if (violations.length > 0) return invalidCobv(schemaDetail, violations)
    const view = yield* clientView
    return yield* (yield* Charges).remove(txid, "cobv").pipe(
      Effect.map(
        Option.match({
          onNone: () => notFound(txid),
          onSome: (removed) => HttpServerResponse.jsonUnsafe(CobvWire.cobv(removed, view))
        })
      ),
      Effect.catchTag("ChargeNotActive", (refused) =>
        Effect.succeed(
          invalidCobv("A cobrança não está ATIVA, e a presente requisição busca alterá-la.", [
            { razao: `A cobrança está ${refused.status}.`, propriedade: "cobv.status", valor: refused.status }
          ])
        )
      )
    )
  })
)

export const path = "/cobv/:txid"

export const layer = Layer.mergeAll(
  HttpRouter.add("PUT", path, put),
  HttpRouter.add("GET", path, get),
  HttpRouter.add("PATCH", path, patch)
)
