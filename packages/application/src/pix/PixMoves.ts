// What a pix does to its invoice, each in a transaction of its own (the company, then the invoice locked): a received
// pix pays the invoice it was charged for or, when it pays nothing (another amount, an invoice no longer pending), is
// recorded with the return to make of it; a return (a pix refund) is closed with how it ended. A pix pays its invoice
// once, a return closes once; a hybrid boleto paid by its pix is withdrawn from the bank (SPEC 15.1). No provider is
// asked here.
import { Cents, type Invoice, Moves } from "@fatura/domain"
import { Effect, Option, Result } from "effect"
import * as HybridBoleto from "../boletos/HybridBoleto.js"
import { companyOf } from "../companies/CompanyRepository.js"
import * as InvoiceRecords from "../invoices/InvoiceRecords.js"
import { InvoiceRepository } from "../invoices/InvoiceRepository.js"
import * as Clock from "../platform/Clock.js"
import { randomUuid } from "../platform/Secrets.js"
import { Transactions } from "../platform/Transactions.js"
import { ReceivableRepository } from "../receivables/ReceivableRepository.js"
import type { PixReturnState, ReceivedPix } from "./PixProvider.js"
import { type PendingRefund, type PixRejection, PixReturnRepository } from "./PixReturnRepository.js"

/** What became of a received pix. */
export type PixOutcome = "paid" | "already_paid" | "rejected" | "unmatched"

export const make = Effect.gen(function* () {
  const invoices = yield* InvoiceRepository
  const returns = yield* PixReturnRepository
  const receivables = yield* ReceivableRepository
  const { withdrawOtherWays } = yield* HybridBoleto.make
  const transactions = yield* Transactions
  const records = yield* InvoiceRecords.make

  /** The invoice and its company, both locked for the enclosing transaction (company first, then invoice). */
  const locked = Effect.fnUntraced(function* (invoice: Invoice.Invoice) {
    const company = yield* companyOf(invoices.lockCompanyLedger(invoice.companyId), invoice.companyId)
    const current = yield* invoices.lock(invoice.companyId, invoice.mode, { _tag: "Id", id: invoice.id })
    return { company, invoice: Option.getOrThrow(current) }
  })

  /** Pays the invoice of a pix, in a transaction; a pix that pays nothing is recorded, with its return to make. */
  const settlePix = Effect.fnUntraced(function* (received: ReceivedPix) {
    const log = { endToEndId: received.endToEndId, txid: received.txid, amount: received.amount }
    if (received.txid === null) {
      yield* Effect.logWarning("pix received without a charge: nothing to pay", log)
      return "unmatched" as PixOutcome
    }
    const found = yield* invoices.findByPixTxid(received.txid)
    if (Option.isNone(found)) {
      yield* Effect.logWarning("pix received for a charge of no invoice", log)
      return "unmatched" as PixOutcome
    }
    if (found.value.pix?.endToEndId === received.endToEndId) return "already_paid" as PixOutcome
    return yield* transactions.withTransaction(
      Effect.gen(function* () {
        const { company, invoice } = yield* locked(found.value)
        if (invoice.pix?.endToEndId === received.endToEndId) return "already_paid" as PixOutcome
        const now = yield* Clock.now
        const paid = Moves.pay(invoice, now, company.feePlan, received)
        if (Result.isFailure(paid)) {
          const refusal =
            paid.failure._tag === "PaymentMismatch"
              ? `a pix of ${Cents.formatBRL(received.amount)} arrived for an invoice of ${Cents.formatBRL(invoice.amount)}`
              : `a pix arrived for an invoice that is ${invoice.status}`
          const reason =
            `${refusal} (end-to-end id ${received.endToEndId}): the invoice was not paid by it, and the pix is ` +
            "returned to its payer"
          const rejection: PixRejection = {
            endToEndId: received.endToEndId,
            invoiceId: invoice.id,
            amount: received.amount,
            returnId: `R${randomUuid().replaceAll("-", "")}`,
            returnState: "pending",
            createdAt: now
          }
          if (!(yield* returns.recordPixRejection({ ...rejection, reason, at: now }))) {
            return "rejected" as PixOutcome
          }
          yield* Effect.logWarning("pix rejected", { ...log, invoiceId: invoice.id, reason })
          yield* records.recordEvent(company, invoice, "invoice.payment_rejected", now, reason)
          return rejection
        }
        yield* records.move(company, invoice, paid.success)
        yield* withdrawOtherWays(invoice, "pix", now)
        yield* Effect.logInfo("pix paid its invoice", { ...log, invoiceId: invoice.id })
        return "paid" as PixOutcome
      })
    )
  })

  /** Closes a pending return with how it ended, in a transaction; false when another answer closed it first. */
  const closeReturn = Effect.fnUntraced(function* (pending: PendingRefund, state: PixReturnState) {
    if (state._tag === "Processing") return false
    const found = yield* invoices.findById(pending.invoiceId)
    return yield* transactions.withTransaction(
      Effect.gen(function* () {
        const { company, invoice } = yield* locked(Option.getOrThrow(found))
        const now = yield* Clock.now
        // A pending refund holds part of a paid or partially refunded invoice: nothing moves it elsewhere (pix
        // has no chargeback), so its success is always a move the diagram allows.
        const settlement = yield* Effect.orDie(
          Effect.fromResult(
            Moves.settleReturn(invoice, yield* receivables.ofInvoice(invoice.id), pending.amount, state, now)
          )
        )
        if (settlement._tag === "Refused") {
          const reason = `the pix provider refused the refund: ${settlement.reason}`
          const closed = yield* returns.closePendingRefund(
            invoice,
            pending.id,
            { status: "failed", reason, movements: settlement.movements, receivables: settlement.receivables },
            now
          )
          if (Option.isNone(closed)) return false
          yield* records.recordEvent(company, closed.value, settlement.event, now, reason)
          return true
        }
        const closed = yield* returns.closePendingRefund(invoice, pending.id, { status: "succeeded" }, now)
        if (Option.isNone(closed)) return false
        yield* records.move(company, closed.value, settlement.transition)
        return true
      })
    )
  })

  return { settlePix, closeReturn }
})
