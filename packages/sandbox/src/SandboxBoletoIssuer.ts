// The sandbox bank: registers nothing, but builds slips exactly as a FEBRABAN bank would, so that any bank
// app reads their lines. The beneficiary code in the free field is the company's id.
import { BoletoIssuer } from "@fatura/application"
import { Boleto } from "@fatura/domain"
import { Effect, Layer } from "effect"

export const bankCode = "001"

export const layer = Layer.succeed(
  BoletoIssuer,
  BoletoIssuer.of({
    issue: ({ company, amount, dueDate, ourNumber }) =>
      Effect.sync(() => {
        const freeField = Boleto.freeField({ ourNumber, beneficiaryCode: String(company.id).padStart(7, "0") })
        const barcode = Boleto.barcode({ bankCode, amount, dueDate, freeField })
        return { bankCode, barcode, digitableLine: Boleto.digitableLine(barcode), registration: "registered" as const }
      })
  })
)
