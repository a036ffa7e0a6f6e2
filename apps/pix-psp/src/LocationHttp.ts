// What a payer's app reaches with no credentials: the location of each charge — `GET /qr/v2/{token}` for an immediate
// one, `GET /qr/v2/cobv/{token}` for one with a due date — which answers the charge's payload as a signed JWS
// (`application/jose`), and the JWKS that verifies it. A location of one kind serves no charge of the other.
import { Clock, Effect, Layer, Option } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { Charges, isOfKind, lastPayableDay, termsOf } from "./Charges.js"
import * as CobvWire from "./CobvWire.js"
import * as CobWire from "./CobWire.js"
import * as DueDates from "./DueDates.js"
import { jwksPath, LocationSigner } from "./LocationSigner.js"
import * as Problem from "./Problem.js"
import { PspSettings } from "./PspSettings.js"
import { PublicAddress } from "./PublicAddress.js"

export const locationPath = "/qr/v2/:token"
export const dueLocationPath = "/qr/v2/cobv/:token"

const noCharge = Problem.notFound("CobPayloadNaoEncontrado", "Nenhuma cobrança nesta location.")

/** The payload signed, as the location answers it. */
const signed = (payload: unknown) =>
  Effect.gen(function* () {
    const { baseUrl } = yield* PublicAddress
    const signer = yield* LocationSigner
    return HttpServerResponse.text(signer.sign(payload, baseUrl + jwksPath), {
      contentType: "application/jose",
      headers: { "cache-control": "no-store" }
    })
  })

const chargeAt = Effect.gen(function* () {
  const token = (yield* HttpRouter.params).token ?? ""
  return yield* (yield* Charges).findByLocation(token)
})

// A charge that is no longer ATIVA, or past its due date, is still served, with its status: the spec leaves that to
// the PSP, and it tells the payer why the charge cannot be paid.
const payload = Effect.gen(function* () {
  const found = Option.filter(yield* chargeAt, (charge) => isOfKind(charge, "cob"))
  if (Option.isNone(found)) return noCharge
  return yield* signed(CobWire.payload(found.value, yield* Clock.currentTimeMillis))
})

const invalidQuery = (violacoes: ReadonlyArray<Problem.Violation>) =>
  Problem.invalid(
    "CobPayloadOperacaoInvalida",
    "Requisição inválida.",
    "A cobrança existe, mas os parâmetros da requisição são inválidos.",
    violacoes
  )

/**
 * The payload of a charge with a due date. `codMun` (the payer's municipality, 7 digits of the IBGE's table) and `DPP`
 * (the day the payer means to pay) are checked as the spec says; without fines, interest or discounts here, neither
 * changes `valor.final`.
 */
const duePayload = Effect.gen(function* () {
  const found = Option.filter(yield* chargeAt, (charge) => isOfKind(charge, "cobv"))
  if (Option.isNone(found)) return noCharge
  const charge = found.value
  const now = yield* Clock.currentTimeMillis
  const search = yield* HttpServerRequest.ParsedSearchParams
  const violations: Array<Problem.Violation> = []
  const { codMun, DPP } = search
  if (codMun !== undefined && !(typeof codMun === "string" && /^\d{7}$/.test(codMun))) {
    violations.push({ razao: "O codMun tem 7 dígitos.", propriedade: "codMun", valor: String(codMun) })
  }
  if (DPP !== undefined) {
    const today = DueDates.saoPauloDate(now)
    const lastDay = lastPayableDay(termsOf(charge))
    if (!(typeof DPP === "string" && DueDates.isCalendarDate(DPP))) {
      violations.push({ razao: "A DPP é uma data AAAA-MM-DD.", propriedade: "DPP", valor: String(DPP) })
    } else if (DPP < today) {
      violations.push({ razao: `A DPP é anterior a hoje (${today}).`, propriedade: "DPP", valor: DPP })
    } else if (DPP > lastDay) {
      violations.push({
        razao: `A cobrança não pode ser paga na DPP: seu último dia é ${lastDay}.`,
        propriedade: "DPP",
        valor: DPP
      })
    }
  }
  if (violations.length > 0) return invalidQuery(violations)
  return yield* signed(CobvWire.payload(charge, now, yield* PspSettings))
})

const jwks = LocationSigner.useSync((signer) => HttpServerResponse.jsonUnsafe(signer.jwks))

export const layer = Layer.mergeAll(
  HttpRouter.add("GET", locationPath, payload),
  HttpRouter.add("GET", dueLocationPath, duePayload),
  HttpRouter.add("GET", jwksPath, jwks)
)
