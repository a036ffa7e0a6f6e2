// The boleto issuer of a bank that registers boletos from its files (SPEC 15.1): the slip is built under the bank's
// code with Fatura's free field (our number, then the agreement), and is pending until a retorno registers it.
import { BoletoIssuer } from "@fatura/application"
import { Boleto } from "@fatura/domain"
import { Effect, Layer } from "effect"
import type * as Cobranca from "../Cobranca.js"

/** The agreement as the free field's beneficiary code: its last 8 digits. */
export const beneficiaryCodeOf = (agreement: Cobranca.Agreement): string =>
  agreement.agreement.replace(/\D/g, "").slice(-8) || agreement.account.slice(-8)

export const layer = (agreement: Cobranca.Agreement) =>
  Layer.succeed(
    BoletoIssuer,
    BoletoIssuer.of({
      issue: ({ amount, dueDate, ourNumber }) =>
        Effect.sync(() => {
          const freeField = Boleto.freeField({ ourNumber, beneficiaryCode: beneficiaryCodeOf(agreement) })
          const barcode = Boleto.barcode({ bankCode: agreement.bankCode, amount, dueDate, freeField })
          return {
            bankCode: agreement.bankCode,
            barcode,
            digitableLine: Boleto.digitableLine(barcode),
            registration: "pending" as const
          }
        })
    })
  )
