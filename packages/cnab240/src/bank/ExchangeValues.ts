// What the exchange writes into a remessa, from what Fatura keeps: a boleto of an invoice, a payment of a withdrawal's
// attempt, and the instant a file is written, in the bank's time (São Paulo).
import type { BankPayout } from "@fatura/application"
import { BusinessCalendar, type Invoice, Timestamp } from "@fatura/domain"
import { Clock, Effect } from "effect"
import type * as Cobranca from "../Cobranca.js"
import type * as Pagamentos from "../Pagamentos.js"
import type * as Values from "../Values.js"

export const nowTimestamp = Effect.map(Clock.currentTimeMillis, (millis) =>
  Timestamp.fromEpochMicros(BigInt(millis) * 1000n)
)

/** Now in São Paulo (UTC−3, no daylight saving since 2019): a file's date and time. */
export const writtenNow: Effect.Effect<Values.Written> = Effect.map(Clock.currentTimeMillis, (millis) => {
  const local = new Date(millis - 3 * 3_600_000).toISOString()
  return { date: local.slice(0, 10), time: local.slice(11, 19) }
})

/** The boleto of a boleto invoice, as a registration writes it: the invoice's id names it back in every retorno. */
export const boletoOf = (invoice: Invoice.Invoice): Cobranca.Boleto => {
  const slip = invoice.boleto!
  const address = invoice.payer.address
  return {
    ourNumber: slip.ourNumber,
    documentNumber: String(invoice.id),
    companyReference: String(invoice.id),
    issuedOn: BusinessCalendar.saoPauloDate(invoice.createdAt),
    dueDate: slip.dueDate,
    amount: invoice.amount,
    payer: {
      document: invoice.payer.document.number,
      name: invoice.payer.name,
      address: [address.line, address.number, address.complement].filter((part) => part !== null).join(", "),
      district: "",
      zip: (address.zip ?? "").replace(/\D/g, ""),
      city: address.city ?? "",
      state: address.state ?? ""
    }
  }
}

/** A withdrawal's attempt as a payment, paid on `date`: to the account the withdrawal was asked for. */
export const paymentOf = (payout: BankPayout, date: string): Pagamentos.Payment => ({
  reference: payout.reference,
  form: payout.form,
  payee: {
    bankCode: payout.destination.bank.code,
    agency: payout.destination.bank.agency,
    account: payout.destination.bank.account,
    accountDigit: payout.destination.bank.digit,
    accountType: payout.destination.bank.type,
    name: payout.destination.holderName,
    document: payout.destination.holderDocument
  },
  amount: payout.amount,
  paymentDate: date
})
