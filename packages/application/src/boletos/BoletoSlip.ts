// How a boleto invoice gets its slip: the due date checked (three days from today when none, at most a year ahead),
// the next "nosso número", the slip issued (outside any transaction), and the address of its PDF; and, when the bank
// registers slips from its files, the registration queued with the invoice.
import type { Cents, Company, Invoice, Timestamp } from "@fatura/domain"
import { Effect } from "effect"
import { InvoiceRepository } from "../invoices/InvoiceRepository.js"
import * as Clock from "../platform/Clock.js"
import { InvalidDueDate } from "../platform/Failures.js"
import { PublicBaseUrl } from "../platform/PublicBaseUrl.js"
import { Transactions } from "../platform/Transactions.js"
import { BoletoIssuer } from "./BoletoIssuer.js"
import { BoletoRegistrationRepository } from "./BoletoRegistrationRepository.js"

export const defaultBoletoDueInDays = 3
export const maximumBoletoDueInDays = 365

export interface BoletoSlipRequest {
  readonly company: Company.Company
  readonly secureId: Invoice.SecureId
  readonly tokenCheckout: string
  readonly amount: Cents.Cents
  /** The due date asked for, if any. */
  readonly dueDate: string | null
  /** The business date today. */
  readonly today: string
}

export const make = Effect.gen(function* () {
  const boletos = yield* BoletoIssuer
  const invoices = yield* InvoiceRepository
  const transactions = yield* Transactions
  const registrations = yield* BoletoRegistrationRepository
  // Read once, when the service is built, from whatever configured it.
  const publicBaseUrl = yield* PublicBaseUrl

  const issue = Effect.fnUntraced(function* (request: BoletoSlipRequest) {
    const { today } = request
    const dueDate = request.dueDate ?? Clock.addDays(today, defaultBoletoDueInDays)
    const latest = Clock.addDays(today, maximumBoletoDueInDays)
    if (dueDate < today || dueDate > latest) {
      return yield* new InvalidDueDate({ dueDate, reason: `must be between ${today} and ${latest}` })
    }
    const ourNumber = yield* invoices.nextOurNumber
    const issued = yield* transactions.external(
      boletos.issue({ company: request.company, amount: request.amount, dueDate, ourNumber })
    )
    return {
      ...issued,
      dueDate,
      ourNumber,
      url: `${publicBaseUrl}/api/v2/public/invoices/${request.secureId}/boleto.pdf?token=${request.tokenCheckout}`
    } satisfies Invoice.BoletoSlip
  })

  /** Queues the registration of a new invoice's slip the bank does not know yet, in the transaction inserting it. */
  const queueRegistration = (invoice: Invoice.Invoice, at: Timestamp.Timestamp) =>
    invoice.boleto?.registration === "pending" ? registrations.queue(invoice, at) : Effect.void

  return { issue, queueRegistration }
})
