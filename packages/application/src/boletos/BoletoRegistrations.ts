// What a bank's retorno does to a boleto's invoice (SPEC 15.1), each inside the caller's transaction with the company
// and then the invoice locked: registered (`invoice.boleto_registered`); rejected (`invoice.boleto_rejected`, and the
// invoice expires); paid at the bank through the same move as every payment, for whatever amount the payer paid, said
// when it differs; written off (the invoice expires if still pending). Each happens once: a retorno read again, or an
// answer the invoice has moved past, changes nothing. The pix charge of a hybrid boleto whose invoice the bank moves
// is queued for removal at the provider, so that no one pays it by pix as well (SPEC 15.1).
import { type BusinessCalendar, Cents, type Company, type Invoice, Moves } from "@fatura/domain"
import { Context, Effect, Layer, Option, Result } from "effect"
import { companyOf } from "../companies/CompanyRepository.js"
import * as InvoiceRecords from "../invoices/InvoiceRecords.js"
import { InvoiceRepository } from "../invoices/InvoiceRepository.js"
import * as Clock from "../platform/Clock.js"
import type { StorageUnavailable } from "../platform/Failures.js"
import { BoletoRegistrationRepository } from "./BoletoRegistrationRepository.js"
import * as HybridBoleto from "./HybridBoleto.js"

/** What an answer of the bank came to. */
export type Outcome = "applied" | "unchanged" | "unknown"

export class BoletoRegistrations extends Context.Service<
  BoletoRegistrations,
  {
    readonly registered: (ourNumber: string) => Effect.Effect<Outcome, StorageUnavailable>
    /** `reasons`: the bank's, as it words them. */
    readonly rejected: (ourNumber: string, reasons: string) => Effect.Effect<Outcome, StorageUnavailable>
    /** `creditedOn`: the day the bank credits the payment (YYYY-MM-DD), when it says. */
    readonly paidAtBank: (
      ourNumber: string,
      paidAmount: Cents.Cents,
      creditedOn: BusinessCalendar.CalendarDate | null
    ) => Effect.Effect<Outcome, StorageUnavailable>
    readonly writtenOff: (ourNumber: string) => Effect.Effect<Outcome, StorageUnavailable>
  }
>()("@fatura/application/BoletoRegistrations") {
  static readonly layer = Layer.effect(
    BoletoRegistrations,
    Effect.gen(function* () {
      const registrations = yield* BoletoRegistrationRepository
      const { withdrawOtherWays } = yield* HybridBoleto.make
      const invoices = yield* InvoiceRepository
      const records = yield* InvoiceRecords.make

      /** A move of the bank's, written; a hybrid boleto's pix charge must no longer be paid. */
      const moved = (company: Company.Company, invoice: Invoice.Invoice, transition: Moves.Transition) =>
        Effect.andThen(records.move(company, invoice, transition), withdrawOtherWays(invoice, "bank", transition.at))

      /** The boleto's invoice and its company, locked (company first); none for an our number never issued. */
      const locked = (ourNumber: string) =>
        Effect.gen(function* () {
          const found = yield* registrations.findByOurNumber(ourNumber)
          if (Option.isNone(found)) {
            yield* Effect.logWarning("the bank answered for a boleto Fatura never issued", { ourNumber })
            return Option.none()
          }
          const invoice = Option.getOrThrow(yield* invoices.findById(found.value.invoiceId))
          const company = yield* companyOf(invoices.lockCompanyLedger(invoice.companyId), invoice.companyId)
          const current = Option.getOrThrow(
            yield* invoices.lock(invoice.companyId, invoice.mode, { _tag: "Id", id: invoice.id })
          )
          const registration = Option.getOrThrow(yield* registrations.findByOurNumber(ourNumber))
          return Option.some({ company, invoice: current, registration })
        })

      const registered = (ourNumber: string) =>
        Effect.gen(function* () {
          const found = yield* locked(ourNumber)
          if (Option.isNone(found)) return "unknown" as Outcome
          const { company, invoice, registration } = found.value
          if (registration.status !== "pending") return "unchanged" as Outcome
          const now = yield* Clock.now
          yield* registrations.set(invoice.id, "registered", now)
          yield* records.recordEvent(company, withRegistration(invoice, "registered"), "invoice.boleto_registered", now)
          return "applied" as Outcome
        })

      const rejected = (ourNumber: string, reasons: string) =>
        Effect.gen(function* () {
          const found = yield* locked(ourNumber)
          if (Option.isNone(found)) return "unknown" as Outcome
          const { company, invoice, registration } = found.value
          if (registration.status !== "pending") return "unchanged" as Outcome
          const now = yield* Clock.now
          yield* registrations.set(invoice.id, "rejected", now)
          const reason = `the bank rejected the boleto: ${reasons}`
          const view = withRegistration(invoice, "rejected")
          yield* records.recordEvent(company, view, "invoice.boleto_rejected", now, reason)
          const expired = Moves.expire(view, now)
          if (Result.isSuccess(expired)) yield* moved(company, view, expired.success)
          return "applied" as Outcome
        })

      const paidAtBank = (
        ourNumber: string,
        paidAmount: Cents.Cents,
        creditedOn: BusinessCalendar.CalendarDate | null
      ) =>
        Effect.gen(function* () {
          const found = yield* locked(ourNumber)
          if (Option.isNone(found)) return "unknown" as Outcome
          const { company, invoice } = found.value
          const now = yield* Clock.now
          if (!(yield* registrations.recordBankPayment(invoice.id, paidAmount, now))) return "unchanged" as Outcome
          const paid = Moves.payAtBank(invoice, now, company.feePlan, { amount: paidAmount, creditedOn })
          if (Result.isFailure(paid)) {
            // The bank took a payment for a boleto whose invoice is no longer payable (expired meanwhile, or paid by
            // its pix first): the invoice stays as it is, and the company is told.
            const by = invoice.pix?.endToEndId == null ? "" : ` by pix (end-to-end id ${invoice.pix.endToEndId})`
            const reason =
              `the bank received ${Cents.formatBRL(paidAmount)} for the boleto, and the invoice is ` +
              `${invoice.status}${by}: it was not paid by it`
            yield* Effect.logWarning("a boleto paid at the bank paid nothing", { ourNumber, reason })
            yield* records.recordEvent(company, invoice, "invoice.payment_rejected", now, reason)
            return "unchanged" as Outcome
          }
          yield* moved(company, invoice, paid.success)
          return "applied" as Outcome
        })

      const writtenOff = (ourNumber: string) =>
        Effect.gen(function* () {
          const found = yield* locked(ourNumber)
          if (Option.isNone(found)) return "unknown" as Outcome
          const { company, invoice } = found.value
          const expired = Moves.expire(invoice, yield* Clock.now)
          if (Result.isFailure(expired)) return "unchanged" as Outcome
          yield* moved(company, invoice, expired.success)
          return "applied" as Outcome
        })

      return BoletoRegistrations.of({ registered, rejected, paidAtBank, writtenOff })
    })
  )
}

/** The invoice as it shows once its boleto's registration is `status`. */
const withRegistration = (invoice: Invoice.Invoice, status: Invoice.BoletoRegistration): Invoice.Invoice =>
  invoice.boleto === null ? invoice : { ...invoice, boleto: { ...invoice.boleto, registration: status } }
