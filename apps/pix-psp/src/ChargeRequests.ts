// What a client's request for a charge holds alike for both kinds (`CobSolicitada`, `CobVSolicitada`): the parts of
// the schema they share, and the checks the schema cannot make — the key must be the client's, the amount not zero,
// the debtor named by a CPF or a CNPJ — told as the spec's violations under the request's name (`cob`, `cobv`).
import { Schema } from "effect"
import type { ChargeKind, TxidTaken } from "./Charges.js"
import * as Identifiers from "./Identifiers.js"
import * as Money from "./Money.js"
import type * as Problem from "./Problem.js"

export const text = (maxLength: number) => Schema.String.check(Schema.isMaxLength(maxLength))

/** A debtor's document and name (`PessoaFisica`, `PessoaJuridica`): which of the two documents is checked apart. */
export const debtorFields = {
  cpf: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^\d{11}$/, { expected: "11 dígitos" }))),
  cnpj: Schema.optionalKey(
    Schema.String.check(Schema.isPattern(/^[0-9A-Z]{14}$/, { expected: "14 dígitos ou letras maiúsculas" }))
  ),
  nome: text(200)
}

export const InfoAdicionais = Schema.Array(Schema.Struct({ nome: text(50), valor: text(200) })).check(
  Schema.isMaxLength(50)
)

/** The part of a request every charge has, as the checks below read it. */
export interface SharedRequest {
  readonly chave: string
  readonly valor: { readonly original: string }
  readonly loc?: unknown
  readonly devedor?: { readonly cpf?: string; readonly cnpj?: string }
}

/** What the spec says is wrong with the shared part of a request the schema took; none when nothing is. */
export const sharedViolations = (
  request: SharedRequest,
  kind: ChargeKind,
  pixKey: string
): ReadonlyArray<Problem.Violation> => {
  const violations: Array<Problem.Violation> = []
  if (request.chave !== pixKey) {
    violations.push({
      razao: "A chave não pertence a este usuário recebedor.",
      propriedade: `${kind}.chave`,
      valor: request.chave
    })
  }
  if (Money.toCents(request.valor.original) === 0) {
    violations.push({ razao: "O valor da cobrança não pode ser 0.00.", propriedade: `${kind}.valor.original` })
  }
  if (request.loc !== undefined) {
    violations.push({ razao: "Este PSP não oferece locations criadas à parte (/loc).", propriedade: `${kind}.loc.id` })
  }
  const devedor = request.devedor
  if (devedor !== undefined && (devedor.cpf === undefined) === (devedor.cnpj === undefined)) {
    violations.push({ razao: "O devedor tem um CPF ou um CNPJ, não ambos nem nenhum.", propriedade: `${kind}.devedor` })
  }
  return violations
}

/** The violation of a txid that is not 26 to 35 letters and digits; none for a good one. */
export const txidViolations = (txid: string): ReadonlyArray<Problem.Violation> =>
  Identifiers.txidPattern.test(txid)
    ? []
    : [{ razao: "O txid tem de 26 a 35 letras e dígitos.", propriedade: "txid", valor: txid }]

const kindNames = { cob: "uma cobrança imediata (cob)", cobv: "uma cobrança com vencimento (cobv)" } as const

/** The violation of a txid that already names a charge of the other kind: one txid, one charge. */
export const takenViolation = (taken: TxidTaken): Problem.Violation => ({
  razao: `O txid já identifica ${kindNames[taken.kind]} deste usuário recebedor.`,
  propriedade: "txid",
  valor: taken.txid
})
