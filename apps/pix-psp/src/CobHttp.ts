// `PUT /cob/{txid}` and `GET /cob/{txid}`: the client creates an immediate charge under its own txid and reads it
// back. A repeated PUT with the same terms answers the charge as it is (clients retry with the same txid); different
// terms revise an ATIVA charge (`revisao` + 1, same location) and are refused once it is not ATIVA (the spec's
// `CobOperacaoInvalida`), as is a txid that names a charge with a due date.
import { Effect, Layer, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { guarded } from "./ApiAccess.js"
import * as ChargeRequests from "./ChargeRequests.js"
import { Charges, type CobTerms, isOfKind, revisionOf } from "./Charges.js"
import * as CobWire from "./CobWire.js"
import * as Money from "./Money.js"
import * as Problem from "./Problem.js"
import { PspSettings } from "./PspSettings.js"
import { PspState } from "./PspState.js"
import { PublicAddress } from "./PublicAddress.js"
import { ReceivedPixes } from "./ReceivedPix.js"
import * as Violations from "./Violations.js"

const { text } = ChargeRequests

/** `CobSolicitada`, as far as this PSP takes it. */
const CobRequest = Schema.Struct({
  calendario: Schema.Struct({
    expiracao: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThan(0)))
  }),
  devedor: Schema.optionalKey(Schema.Struct(ChargeRequests.debtorFields)),
  loc: Schema.optionalKey(Schema.Unknown),
  valor: Schema.Struct({
    original: Money.Amount,
    modalidadeAlteracao: Schema.optionalKey(Schema.Literals([0, 1])),
    retirada: Schema.optionalKey(Schema.Unknown)
  }),
  chave: text(77),
  solicitacaoPagador: Schema.optionalKey(text(140)),
  infoAdicionais: Schema.optionalKey(ChargeRequests.InfoAdicionais)
})
const decodeCobRequest = Schema.decodeUnknownEffect(CobRequest)

const invalidCob = (detail: string, violacoes: ReadonlyArray<Problem.Violation>) =>
  Problem.invalid("CobOperacaoInvalida", "Cobrança inválida.", detail, violacoes)

const schemaDetail =
  "A requisição que busca alterar ou criar uma cobrança para pagamento imediato não respeita o _schema_."

/** The terms of a request the schema took, or what the spec says is wrong with them. */
const termsOf = (request: typeof CobRequest.Type, pixKey: string) => {
  const violations = [...ChargeRequests.sharedViolations(request, "cob", pixKey)]
  if (request.valor.retirada !== undefined) {
    violations.push({
      razao: "Pix Saque e Pix Troco não são oferecidos por este PSP.",
      propriedade: "cob.valor.retirada"
    })
  }
  if (violations.length > 0) return { violations }
  const { devedor } = request
  const terms: CobTerms = {
    kind: "cob",
    expiracao: request.calendario.expiracao ?? 86_400,
    original: Money.toCents(request.valor.original),
    chave: request.chave,
    ...(devedor === undefined ? {} : { devedor }),
    ...(request.valor.modalidadeAlteracao === undefined
      ? {}
      : { modalidadeAlteracao: request.valor.modalidadeAlteracao }),
    ...(request.solicitacaoPagador === undefined ? {} : { solicitacaoPagador: request.solicitacaoPagador }),
    ...(request.infoAdicionais === undefined ? {} : { infoAdicionais: request.infoAdicionais })
  }
  return { terms }
}

const put = guarded(
  "cob.write",
  Effect.gen(function* () {
    const txid = (yield* HttpRouter.params).txid ?? ""
    const badTxid = ChargeRequests.txidViolations(txid)
    if (badTxid.length > 0) return invalidCob(schemaDetail, badTxid)
    const request = yield* HttpServerRequest.HttpServerRequest
    const body = yield* Effect.option(request.json)
    if (Option.isNone(body)) return invalidCob("O corpo da requisição não é um JSON.", [])
    const decoded = yield* Effect.result(decodeCobRequest(body.value))
    if (decoded._tag === "Failure") return invalidCob(schemaDetail, Violations.fromSchemaError(decoded.failure, "cob"))
    const { credentials } = yield* PspState
    const checked = termsOf(decoded.success, credentials.pixKey)
    if ("violations" in checked) return invalidCob("A cobrança está semanticamente errada.", checked.violations)
    const { authority } = yield* PublicAddress
    const settings = yield* PspSettings
    return yield* (yield* Charges).put(txid, checked.terms).pipe(
      Effect.map(({ charge }) =>
        HttpServerResponse.jsonUnsafe(CobWire.cob(charge, { authority, settings }), { status: 201 })
      ),
      Effect.catchTags({
        ChargeNotActive: (refused) =>
          Effect.succeed(
            invalidCob("A cobrança já existe, não está no status ATIVA, e a presente requisição busca alterá-la.", [
              { razao: `A cobrança está ${refused.status}.`, propriedade: "cob.status", valor: refused.status }
            ])
          ),
        TxidTaken: (taken) =>
          Effect.succeed(invalidCob("A cobrança está semanticamente errada.", [ChargeRequests.takenViolation(taken)]))
      })
    )
  })
)

const get = guarded(
  "cob.read",
  Effect.gen(function* () {
    const txid = (yield* HttpRouter.params).txid ?? ""
    // A charge with a due date is not an immediate one: `GET /cobv/{txid}` reads it.
    const found = Option.filter(yield* (yield* Charges).find(txid), (charge) => isOfKind(charge, "cob"))
    if (Option.isNone(found)) return Problem.notFound("CobNaoEncontrado", `Nenhuma cobrança com o txid ${txid}.`)
    const charge = found.value
    const search = yield* HttpServerRequest.ParsedSearchParams
    const asked = typeof search.revisao === "string" ? search.revisao : undefined
    if (asked !== undefined && !(/^\d+$/.test(asked) && Number(asked) <= revisionOf(charge))) {
      return Problem.invalid("CobConsultaInvalida", "Consulta inválida.", "A revisão pedida não existe.", [
        { razao: "Revisão inexistente para esta cobrança.", propriedade: "revisao", valor: asked }
      ])
    }
    const pix = (yield* (yield* ReceivedPixes).all).filter((received) => received.txid === txid)
    const { authority } = yield* PublicAddress
    const settings = yield* PspSettings
    return HttpServerResponse.jsonUnsafe(
      CobWire.cob(charge, { authority, settings, pix, ...(asked === undefined ? {} : { revisao: Number(asked) }) })
    )
  })
)

export const path = "/cob/:txid"

export const layer = Layer.mergeAll(HttpRouter.add("PUT", path, put), HttpRouter.add("GET", path, get))
