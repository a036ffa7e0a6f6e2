// The pix received (`GET /pix/{e2eid}`, `GET /pix` by period with the spec's pagination) and their refunds
// (`PUT|GET /pix/{e2eid}/devolucao/{id}`). A refund answers EM_PROCESSAMENTO and settles later; asking again with
// the same id and request answers the same refund.
import { Effect, Layer, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { guarded } from "./ApiAccess.js"
import * as Identifiers from "./Identifiers.js"
import * as Money from "./Money.js"
import { Payments } from "./Payments.js"
import * as PixWire from "./PixWire.js"
import * as Problem from "./Problem.js"
import { type ReceivedPix, ReceivedPixes } from "./ReceivedPix.js"
import * as Violations from "./Violations.js"

const pixNotFound = (endToEndId: string) =>
  Problem.notFound("PixNaoEncontrado", `Nenhum pix recebido com o e2eid ${endToEndId}.`)

const one = guarded(
  "pix.read",
  Effect.gen(function* () {
    const endToEndId = (yield* HttpRouter.params).e2eid ?? ""
    const found = yield* (yield* ReceivedPixes).find(endToEndId)
    return Option.match(found, {
      onNone: () => pixNotFound(endToEndId),
      onSome: (pix) => HttpServerResponse.jsonUnsafe(PixWire.pix(pix))
    })
  })
)

/** An RFC 3339 date-time with its offset, as the spec's `format: date-time`. */
const DateTime = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i, { expected: "RFC 3339" })
)
const Flag = Schema.Literals(["true", "false"])
const Whole = Schema.String.check(Schema.isPattern(/^\d{1,9}$/, { expected: "a whole number" }))

/** The query of `GET /pix`, as the URL carries it. */
const ListQuery = Schema.Struct({
  inicio: DateTime,
  fim: DateTime,
  txid: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^[a-zA-Z0-9]{1,35}$/))),
  txIdPresente: Schema.optionalKey(Flag),
  devolucaoPresente: Schema.optionalKey(Flag),
  cpf: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^\d{11}$/))),
  cnpj: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^[0-9A-Z]{14}$/))),
  "paginacao.paginaAtual": Schema.optionalKey(Whole),
  "paginacao.itensPorPagina": Schema.optionalKey(Whole)
})
const decodeListQuery = Schema.decodeUnknownEffect(ListQuery)

const invalidQuery = (violacoes: ReadonlyArray<Problem.Violation>) =>
  Problem.invalid(
    "PixConsultaInvalida",
    "Consulta inválida.",
    "Os parâmetros de consulta à lista de pix recebidos não respeitam o _schema_ ou não fazem sentido.",
    violacoes
  )

const list = guarded(
  "pix.read",
  Effect.gen(function* () {
    const search = yield* HttpServerRequest.ParsedSearchParams
    const decoded = yield* Effect.result(decodeListQuery(search))
    if (decoded._tag === "Failure") return invalidQuery(Violations.fromSchemaError(decoded.failure, "parametros"))
    const query = decoded.success
    const from = Date.parse(query.inicio)
    const to = Date.parse(query.fim)
    const page = Number(query["paginacao.paginaAtual"] ?? 0)
    const perPage = Number(query["paginacao.itensPorPagina"] ?? 100)
    const violations: Array<Problem.Violation> = []
    if (Number.isNaN(from) || Number.isNaN(to) || to < from) {
      violations.push({
        razao: "O fim é anterior ao início, ou um deles não é uma data.",
        propriedade: "parametros.fim"
      })
    }
    if (query.cpf !== undefined && query.cnpj !== undefined) {
      violations.push({ razao: "CPF e CNPJ não podem ser usados ao mesmo tempo.", propriedade: "parametros.cnpj" })
    }
    if (perPage < 1 || perPage > 1000) {
      violations.push({
        razao: "Os itens por página vão de 1 a 1000.",
        propriedade: "parametros.paginacao.itensPorPagina"
      })
    }
    if (violations.length > 0) return invalidQuery(violations)
    const matches = (pix: ReceivedPix) =>
      pix.horario >= from &&
      pix.horario <= to &&
      (query.txid === undefined || pix.txid === query.txid) &&
      (query.txIdPresente === undefined || (query.txIdPresente === "true") === (pix.txid !== "")) &&
      (query.devolucaoPresente === undefined || (query.devolucaoPresente === "true") === pix.refunds.length > 0) &&
      // The simulator records no payer's document, so a filter by one finds nothing.
      query.cpf === undefined &&
      query.cnpj === undefined
    const found = (yield* (yield* ReceivedPixes).all).filter(matches).sort((a, b) => a.horario - b.horario)
    const { "paginacao.paginaAtual": _page, "paginacao.itensPorPagina": _perPage, ...filters } = query
    return HttpServerResponse.jsonUnsafe({
      parametros: {
        ...filters,
        ...(filters.txIdPresente === undefined ? {} : { txIdPresente: filters.txIdPresente === "true" }),
        ...(filters.devolucaoPresente === undefined ? {} : { devolucaoPresente: filters.devolucaoPresente === "true" }),
        paginacao: {
          paginaAtual: page,
          itensPorPagina: perPage,
          quantidadeDePaginas: Math.max(1, Math.ceil(found.length / perPage)),
          quantidadeTotalDeItens: found.length
        }
      },
      pix: found.slice(page * perPage, (page + 1) * perPage).map(PixWire.pix)
    })
  })
)

/** `DevolucaoSolicitada`. */
const RefundBody = Schema.Struct({
  valor: Money.Amount,
  natureza: Schema.optionalKey(Schema.Literals(["ORIGINAL", "RETIRADA"])),
  descricao: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(140)))
})
const decodeRefundBody = Schema.decodeUnknownEffect(RefundBody)

const invalidRefund = (detail: string, violacoes: ReadonlyArray<Problem.Violation>) =>
  Problem.invalid("PixDevolucaoInvalida", "Devolução inválida.", detail, violacoes)

const requestRefund = guarded(
  "pix.write",
  Effect.gen(function* () {
    const params = yield* HttpRouter.params
    const endToEndId = params.e2eid ?? ""
    const id = params.id ?? ""
    if (!Identifiers.refundIdPattern.test(id)) {
      return invalidRefund("O id da devolução não respeita o _schema_.", [
        { razao: "O id tem de 1 a 35 letras e dígitos.", propriedade: "id", valor: id }
      ])
    }
    const request = yield* HttpServerRequest.HttpServerRequest
    const body = yield* Effect.option(request.json)
    if (Option.isNone(body)) return invalidRefund("O corpo da requisição não é um JSON.", [])
    const decoded = yield* Effect.result(decodeRefundBody(body.value))
    if (decoded._tag === "Failure") {
      return invalidRefund(
        "A devolução não respeita o _schema_.",
        Violations.fromSchemaError(decoded.failure, "devolucao")
      )
    }
    const { valor, natureza, descricao } = decoded.success
    if (natureza === "RETIRADA") {
      return invalidRefund("Este pix não é um Pix Saque nem um Pix Troco.", [
        { razao: "A natureza RETIRADA só cabe a Pix Saque ou Pix Troco.", propriedade: "devolucao.natureza" }
      ])
    }
    if (Money.toCents(valor) === 0) {
      return invalidRefund("A devolução não respeita o _schema_.", [
        { razao: "O valor da devolução não pode ser 0.00.", propriedade: "devolucao.valor" }
      ])
    }
    return yield* (yield* Payments)
      .refund(endToEndId, id, {
        valor: Money.toCents(valor),
        ...(natureza === undefined ? {} : { natureza }),
        ...(descricao === undefined ? {} : { descricao })
      })
      .pipe(
        Effect.map(({ refund }) => HttpServerResponse.jsonUnsafe(PixWire.refund(refund), { status: 201 })),
        Effect.catchTags({
          PixNotFound: () => Effect.succeed(pixNotFound(endToEndId)),
          RefundRefused: (refused) =>
            Effect.succeed(
              invalidRefund("A devolução não faz sentido semanticamente.", [
                { razao: refused.reason, propriedade: refused.property }
              ])
            )
        })
      )
  })
)

const getRefund = guarded(
  "pix.read",
  Effect.gen(function* () {
    const params = yield* HttpRouter.params
    const endToEndId = params.e2eid ?? ""
    const found = yield* (yield* ReceivedPixes).find(endToEndId)
    if (Option.isNone(found)) return pixNotFound(endToEndId)
    const refund = found.value.refunds.find((candidate) => candidate.id === params.id)
    return refund === undefined
      ? Problem.notFound("PixDevolucaoNaoEncontrada", `Nenhuma devolução ${params.id} para o pix ${endToEndId}.`)
      : HttpServerResponse.jsonUnsafe(PixWire.refund(refund))
  })
)

export const layer = Layer.mergeAll(
  HttpRouter.add("GET", "/pix", list),
  HttpRouter.add("GET", "/pix/:e2eid", one),
  HttpRouter.add("PUT", "/pix/:e2eid/devolucao/:id", requestRefund),
  HttpRouter.add("GET", "/pix/:e2eid/devolucao/:id", getRefund)
)
