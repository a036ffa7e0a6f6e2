// The answers of the API Pix the adapter reads, as schemas of the parts it uses (anything else in them is ignored),
// and what they mean in the terms of the application's PixProvider port.
import type { PixReturnState, ProviderCharge, ReceivedPix } from "@fatura/application"
import { Schema } from "effect"
import { CentsFromAmount } from "./PixAmount.js"
import { TimestampFromRfc3339 } from "./Rfc3339.js"

/** RFC 7807 problem details, as the API Pix answers its errors (`Problema`). */
export const Problem = Schema.Struct({
  type: Schema.optionalKey(Schema.String),
  title: Schema.optionalKey(Schema.String),
  status: Schema.optionalKey(Schema.Number),
  detail: Schema.optionalKey(Schema.String),
  violacoes: Schema.optionalKey(
    Schema.Array(
      Schema.Struct({
        razao: Schema.optionalKey(Schema.String),
        propriedade: Schema.optionalKey(Schema.String)
      })
    )
  )
})
export type Problem = typeof Problem.Type

/** An error of the OAuth2 token endpoint (RFC 6749 §5.2). */
export const OAuthError = Schema.Struct({
  error: Schema.String,
  error_description: Schema.optionalKey(Schema.String)
})

/** A granted access token (RFC 6749 §5.1). */
export const GrantedToken = Schema.Struct({
  access_token: Schema.NonEmptyString,
  token_type: Schema.String,
  expires_in: Schema.optionalKey(Schema.Number.check(Schema.isGreaterThan(0)))
})

/** `Pix`: a pix received, as `GET /pix/{e2eid}`, `GET /pix` and a charge's `pix` list write it. */
export const Pix = Schema.Struct({
  endToEndId: Schema.String,
  txid: Schema.optionalKey(Schema.NullOr(Schema.String)),
  valor: CentsFromAmount,
  horario: TimestampFromRfc3339
})

const chargeStatuses = {
  ATIVA: "active",
  CONCLUIDA: "completed",
  REMOVIDA_PELO_USUARIO_RECEBEDOR: "removed",
  REMOVIDA_PELO_PSP: "removed"
} as const satisfies Record<string, ProviderCharge["status"]>

const ChargeStatus = Schema.Literals(Object.keys(chargeStatuses) as Array<keyof typeof chargeStatuses>)

/** What a status of the API Pix means for a charge, of either kind. */
export const toChargeStatus = (status: typeof ChargeStatus.Type): ProviderCharge["status"] => chargeStatuses[status]

/** `CobGerada` and `CobVGerada`: the answer of `PUT /cob/{txid}` and `PUT /cobv/{txid}`. */
export const CreatedCharge = Schema.Struct({
  txid: Schema.String,
  status: ChargeStatus,
  pixCopiaECola: Schema.NonEmptyString
})

/** A charge's status, as `CobVGerada` (the answer of `PATCH /cobv/{txid}`) has it. */
export const RevisedCharge = Schema.Struct({
  txid: Schema.String,
  status: ChargeStatus
})

/** `CobCompleta` and `CobVCompleta`: the answer of `GET /cob/{txid}` and `GET /cobv/{txid}`. */
export const Charge = Schema.Struct({
  txid: Schema.String,
  status: ChargeStatus,
  valor: Schema.Struct({ original: CentsFromAmount }),
  pix: Schema.optionalKey(Schema.Array(Pix))
})

/** `PixConsultados`: a page of `GET /pix`. */
export const PixPage = Schema.Struct({
  parametros: Schema.Struct({
    paginacao: Schema.Struct({
      paginaAtual: Schema.Int,
      quantidadeDePaginas: Schema.Int
    })
  }),
  pix: Schema.optionalKey(Schema.Array(Pix))
})

/** `Devolucao`: the answer of `PUT` and `GET /pix/{e2eid}/devolucao/{id}`. */
export const PixReturn = Schema.Struct({
  id: Schema.String,
  status: Schema.Literals(["EM_PROCESSAMENTO", "DEVOLVIDO", "NAO_REALIZADO"]),
  horario: Schema.Struct({
    solicitacao: Schema.optionalKey(TimestampFromRfc3339),
    liquidacao: Schema.optionalKey(TimestampFromRfc3339)
  }),
  motivo: Schema.optionalKey(Schema.String)
})

export const toReceivedPix = (pix: typeof Pix.Type): ReceivedPix => ({
  endToEndId: pix.endToEndId,
  // A pix sent to the key without a charge has no txid; some PSPs write it empty.
  txid: pix.txid === undefined || pix.txid === null || pix.txid === "" ? null : pix.txid,
  amount: pix.valor,
  paidAt: pix.horario
})

export const toProviderCharge = (charge: typeof Charge.Type): ProviderCharge => ({
  txid: charge.txid,
  status: toChargeStatus(charge.status),
  amount: charge.valor.original,
  pix: (charge.pix ?? []).map(toReceivedPix)
})

/**
 * Where a return stands. A return DEVOLVIDO was settled at `horario.liquidacao`; a PSP that leaves that out is taken
 * at its `solicitacao`, and one that gives neither is not understood (undefined).
 */
export const toReturnState = (pixReturn: typeof PixReturn.Type): PixReturnState | undefined => {
  switch (pixReturn.status) {
    case "EM_PROCESSAMENTO":
      return { _tag: "Processing" }
    case "DEVOLVIDO": {
      const at = pixReturn.horario.liquidacao ?? pixReturn.horario.solicitacao
      return at === undefined ? undefined : { _tag: "Returned", at }
    }
    case "NAO_REALIZADO":
      return { _tag: "Refused", reason: pixReturn.motivo ?? "the PSP did not make the return (NAO_REALIZADO)" }
  }
}

/** What a problem says, in one line: its title, detail and violations. */
export const describeProblem = (problem: Problem): string => {
  const violations = (problem.violacoes ?? [])
    .map((violation) => [violation.propriedade, violation.razao].filter((part) => part !== undefined).join(": "))
    .filter((text) => text !== "")
  return [problem.title, problem.detail, violations.length > 0 ? `(${violations.join("; ")})` : undefined]
    .filter((part) => part !== undefined && part !== "")
    .join(" — ")
}
