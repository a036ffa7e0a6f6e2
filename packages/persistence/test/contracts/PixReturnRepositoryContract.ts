// The PixReturnRepository contract, as pix settlements rely on it: a refund asked of the provider is recorded with the
// debit that holds its amount and closed once, the failed one giving the amount back; a received pix that paid nothing
// is recorded once and its return closed once; the sweeps find what is still pending, oldest first, and the
// reconciliation's cursor only moves forward.
import { expect } from "@effect/vitest"
import { InvoiceRepository, PixReturnRepository, ReceivableRepository, Transactions } from "@fatura/application"
import { Cents, type Company, type Invoice, Ledger, Receivable, Timestamp } from "@fatura/domain"
import { Effect, Option } from "effect"
import { aCompany, anInvoice, at, freshEra, lockForMove, paidNow } from "../support/Fixtures.js"
import type { Contract } from "../support/TestDatabases.js"

/** A pix invoice of `company` paid by the provider's pix `endToEndId` at `paidAt`, as a settlement pays it. */
const paidByPix = (company: Company.Company, endToEndId: string, paidAt: Timestamp.Timestamp) =>
  Effect.gen(function* () {
    const invoices = yield* InvoiceRepository
    const pending = yield* anInvoice(company, { createdAt: paidAt })
    return yield* (yield* Transactions).withTransaction(
      Effect.flatMap(lockForMove(company, pending), (locked) =>
        invoices.applyTransition(locked, {
          status: "paid",
          event: "invoice.paid",
          at: paidAt,
          paidAt,
          refundedAmount: Cents.make(0),
          ...paidNow({ ...locked, paidAt }),
          refund: null,
          pixEndToEndId: endToEndId
        })
      )
    )
  })

/** Asks for a refund of `amount` of the invoice, as a refund of a pix does, under the locks of a move. */
const aPendingRefund = (
  company: Company.Company,
  invoice: Invoice.Invoice,
  returnId: string,
  amount: number,
  at: Timestamp.Timestamp
) =>
  Effect.gen(function* () {
    const returns = yield* PixReturnRepository
    const invoices = yield* InvoiceRepository
    return yield* (yield* Transactions).withTransaction(
      Effect.gen(function* () {
        const locked = yield* lockForMove(company, invoice)
        const held = yield* returns.recordPendingRefund(locked, {
          amount: Cents.make(amount),
          reason: "damaged",
          returnId,
          at,
          movements: Ledger.onTakeBack("refund", "pix", Cents.make(0), Cents.make(amount)),
          receivables: []
        })
        expect(held).toEqual(Option.getOrThrow(yield* invoices.findById(invoice.id)))
        return held.refunds.at(-1)!.id
      })
    )
  })

const rejection = (invoice: Invoice.Invoice, key: string, at: Timestamp.Timestamp) => ({
  endToEndId: `E${key}`,
  invoiceId: invoice.id,
  amount: Cents.make(500),
  reason: "the invoice was paid already",
  returnId: `D${key}`,
  at
})

export const pixReturnRepositoryContract: Contract = (it) => {
  it.effect("records a pending refund with the debit that holds it, and closes it once, failed or not", () =>
    Effect.gen(function* () {
      const returns = yield* PixReturnRepository
      const invoices = yield* InvoiceRepository
      const transactions = yield* Transactions
      const company = yield* aCompany()
      const invoice = yield* paidByPix(company, `E${company.id}paid`, at(0))
      const returnId = `D${company.id}first`
      const id = yield* aPendingRefund(company, invoice, returnId, 3_000, at(60))

      const pending = {
        id,
        invoiceId: invoice.id,
        companyId: company.id,
        mode: "test",
        amount: 3_000,
        returnId,
        endToEndId: `E${company.id}paid`,
        status: "pending",
        createdAt: at(60)
      }
      expect(yield* returns.findPendingRefund(returnId)).toEqual(Option.some(pending))
      expect(yield* returns.findPendingRefund(`${returnId}_unknown`)).toEqual(Option.none())
      const held = Option.getOrThrow(yield* invoices.findById(invoice.id))
      expect(held.updatedAt).toBe(at(60))
      expect(held.refunds.map((refund) => [refund.id, refund.amount, refund.status])).toEqual([[id, 3_000, "pending"]])
      expect(held.movements.map((entry) => [entry.type, entry.direction, entry.amount])).toEqual([
        ["payment", "credit", invoice.amount],
        ["fee", "debit", invoice.fee.estimatedFee],
        ["refund", "debit", 3_000]
      ])

      const close = (refundId: number, outcome: Parameters<typeof returns.closePendingRefund>[2], seconds: number) =>
        transactions.withTransaction(
          Effect.flatMap(lockForMove(company, invoice), (locked) =>
            returns.closePendingRefund(locked, refundId, outcome, at(seconds))
          )
        )
      const failed = {
        status: "failed",
        reason: "refused",
        ...Receivable.giveBack("pix", [], Cents.make(3_000), at(120))
      } as const
      const closedFailed = yield* close(id, failed, 120)
      expect(Option.isSome(closedFailed)).toBe(true)
      expect(Option.isSome(yield* close(id, failed, 180))).toBe(false)
      expect(yield* returns.findPendingRefund(returnId)).toEqual(Option.some({ ...pending, status: "failed" }))
      const after = Option.getOrThrow(yield* invoices.findById(invoice.id))
      expect(closedFailed).toEqual(Option.some(after))
      expect(after.updatedAt).toBe(at(120))
      expect(after.refunds.map((refund) => [refund.status, refund.failureReason])).toEqual([["failed", "refused"]])
      // What it held is given back as an available receivable, dated the day it was refused.
      expect(
        (yield* (yield* ReceivableRepository).ofInvoice(invoice.id)).map((receivable) => [
          receivable.netAmount,
          receivable.status
        ])
      ).toEqual([
        [invoice.fee.netAmount, "available"],
        [3_000, "available"]
      ])
      expect(after.movements.map((entry) => [entry.type, entry.direction, entry.amount]).slice(3)).toEqual([
        ["refund_reversal", "credit", 3_000]
      ])

      const succeeded = yield* aPendingRefund(company, invoice, `D${company.id}second`, 2_000, at(240))
      const closedSucceeded = yield* close(succeeded, { status: "succeeded" }, 300)
      expect(Option.isSome(closedSucceeded)).toBe(true)
      expect(Option.getOrThrow(yield* returns.findPendingRefund(`D${company.id}second`)).status).toBe("succeeded")
      expect(closedSucceeded).toEqual(yield* invoices.findById(invoice.id))
    })
  )

  it.effect("finds, among return ids, the returns still pending, of refunds and of rejected pix alike", () =>
    Effect.gen(function* () {
      const returns = yield* PixReturnRepository
      const company = yield* aCompany()
      const invoice = yield* paidByPix(company, `E${company.id}found`, at(0))
      const refund = yield* aPendingRefund(company, invoice, `D${company.id}refund`, 1_000, at(10))
      const open = rejection(invoice, `${company.id}open`, at(20))
      const closed = rejection(invoice, `${company.id}closed`, at(20))
      expect(yield* returns.recordPixRejection(open)).toBe(true)
      expect(yield* returns.recordPixRejection(closed)).toBe(true)
      yield* returns.closePixRejection(closed.returnId, "returned", at(30))

      const found = yield* returns.findPendingReturns([
        `D${company.id}refund`,
        open.returnId,
        closed.returnId,
        `D${company.id}unknown`
      ])
      expect(found.refunds.map((pending) => [pending.id, pending.returnId, pending.status])).toEqual([
        [refund, `D${company.id}refund`, "pending"]
      ])
      expect(found.rejections).toEqual([
        {
          endToEndId: open.endToEndId,
          invoiceId: invoice.id,
          amount: 500,
          returnId: open.returnId,
          returnState: "pending",
          createdAt: at(20)
        }
      ])
      expect(yield* returns.findPendingReturns([])).toEqual({ refunds: [], rejections: [] })
    })
  )

  it.effect("records a rejected pix once, closes its return once, and sweeps what is pending, oldest first", () =>
    Effect.gen(function* () {
      const returns = yield* PixReturnRepository
      const era = yield* freshEra
      const company = yield* aCompany()
      const invoice = yield* paidByPix(company, `E${company.id}swept`, era)
      const later = rejection(invoice, `${company.id}later`, Timestamp.plusSeconds(era, 10))
      const first = rejection(invoice, `${company.id}first`, era)
      expect(yield* returns.recordPixRejection(later)).toBe(true)
      expect(yield* returns.recordPixRejection({ ...later, returnId: `${later.returnId}again` })).toBe(false)
      expect(yield* returns.recordPixRejection(first)).toBe(true)
      const staleBefore = (seconds: number) =>
        Effect.map(returns.stalePixRejections(Timestamp.plusSeconds(era, seconds), 10), (stale) =>
          stale.map((found) => found.returnId)
        )
      expect(yield* staleBefore(0)).toEqual([])
      expect(yield* staleBefore(11)).toEqual([first.returnId, later.returnId])

      yield* returns.closePixRejection(first.returnId, "refused", Timestamp.plusSeconds(era, 20))
      yield* returns.closePixRejection(first.returnId, "returned", Timestamp.plusSeconds(era, 30))
      expect(yield* staleBefore(11)).toEqual([later.returnId])
      expect((yield* returns.findPendingReturns([first.returnId])).rejections).toEqual([])

      const refunds = [
        yield* aPendingRefund(company, invoice, `D${company.id}r2`, 100, Timestamp.plusSeconds(era, 5)),
        yield* aPendingRefund(company, invoice, `D${company.id}r1`, 100, era)
      ]
      const staleRefunds = (seconds: number, limit = 10) =>
        Effect.map(returns.stalePendingRefunds(Timestamp.plusSeconds(era, seconds), limit), (stale) =>
          stale.map((found) => found.id)
        )
      expect(yield* staleRefunds(0)).toEqual([])
      expect(yield* staleRefunds(6)).toEqual([refunds[1], refunds[0]])
      expect(yield* staleRefunds(6, 1)).toEqual([refunds[1]])
    })
  )

  it.effect("keeps how far the received pix were listed, moving it only forward", () =>
    Effect.gen(function* () {
      const returns = yield* PixReturnRepository
      expect(yield* returns.pixListedUntil).toEqual(Option.none())
      yield* returns.setPixListedUntil(at(100))
      expect(yield* returns.pixListedUntil).toEqual(Option.some(at(100)))
      yield* returns.setPixListedUntil(at(50))
      expect(yield* returns.pixListedUntil).toEqual(Option.some(at(100)))
      yield* returns.setPixListedUntil(at(200))
      expect(yield* returns.pixListedUntil).toEqual(Option.some(at(200)))
    })
  )
}
