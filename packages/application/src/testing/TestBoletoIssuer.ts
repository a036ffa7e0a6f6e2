// A stand-in bank: slips in the FEBRABAN layout with their check digits, carrying our number and the company's id,
// and no due date in the code (factor 0000), so that it issues them whatever day the test clock shows. `layer`
// registers them at once, as the sandbox does; `registering` leaves them pending, as a bank that registers slips from
// its files does.
import { Boleto, type Cents } from "@fatura/domain"
import { Effect, Layer } from "effect"
import { BoletoIssuer } from "../boletos/BoletoIssuer.js"

/** The bank code of every slip: no real bank's. */
export const bankCode = "999"

const noDueDate = "0000"

const issuer = (registration: "pending" | "registered") =>
  Layer.succeed(
    BoletoIssuer,
    BoletoIssuer.of({
      issue: ({ company, amount, ourNumber }) =>
        Effect.sync(() => {
          const head = bankCode + Boleto.currencyCode
          const tail =
            noDueDate +
            String(amount as Cents.Cents).padStart(10, "0") +
            Boleto.freeField({ ourNumber, beneficiaryCode: String(company.id) })
          const barcode = head + String(Boleto.generalCheckDigit(head + tail)) + tail
          return { bankCode, barcode, digitableLine: Boleto.digitableLine(barcode), registration }
        })
    })
  )

export const layer = issuer("registered")

export const registering = issuer("pending")
