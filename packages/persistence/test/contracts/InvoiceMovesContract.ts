// The InvoiceRepository contract, as the moves of invoices rely on it: every move writes its status, timeline entry,
// ledger entries and refund, and the running totals follow the ledger; a card charge settles its pending invoice;
// the expiry sweep finds what is due, oldest first.
import { expect } from "@effect/vitest"
import { CompanyRepository, InvoiceRepository, ReceivableRepository, Transactions } from "@fatura/application"
import { Cents, type Company, Ledger, Timestamp } from "@fatura/domain"
import { Effect, Option } from "effect"
import {
  aCompany,
  anInvoice,
  at,
  card,
  dateOf,
  draft,
  freshEra,
  lockForCardMove,
  lockForMove,
  paidInvoice,
  paidNow
} from "../support/Fixtures.js"
import type { Contract } from "../support/TestDatabases.js"

export const invoiceMovesContract: Contract = (it) => {
  it.effect("records a move: status, paid time, timeline entry and ledger entries, with the totals following", () =>
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const companies = yield* CompanyRepository
      const transactions = yield* Transactions
      const company = yield* aCompany()
      const invoice = yield* anInvoice(company, { createdAt: at(0) })
      const fee = Cents.make(invoice.fee.estimatedFee)

      const paid = yield* transactions.withTransaction(
        Effect.gen(function* () {
          const locked = yield* lockForMove(company, invoice)
          expect(locked).toEqual(invoice)
          return yield* invoices.applyTransition(locked, {
            status: "paid",
            event: "invoice.paid",
            at: at(60),
            paidAt: at(60),
            refundedAmount: Cents.make(0),
            ...paidNow({ ...invoice, paidAt: at(60) }),
            refund: null
          })
        })
      )

      expect(paid).toEqual(Option.getOrThrow(yield* invoices.findById(invoice.id)))
      expect([paid.status, paid.paidAt, paid.updatedAt, paid.createdAt]).toEqual(["paid", at(60), at(60), at(0)])
      expect(paid.timeline.map((entry) => [entry.status, entry.createdAt])).toEqual([
        ["pending", at(0)],
        ["paid", at(60)]
      ])
      expect(paid.movements.map((entry) => [entry.type, entry.amount, entry.createdAt])).toEqual([
        ["payment", invoice.amount, at(60)],
        ["fee", fee, at(60)]
      ])
      // Its receivables with it (SPEC 13.1).
      const receivables = yield* ReceivableRepository
      expect((yield* receivables.ofInvoice(invoice.id)).map(({ id: _, ...receivable }) => receivable)).toEqual(
        paidNow({ ...invoice, paidAt: at(60) }).receivables.map((receivable) => ({
          ...receivable,
          invoiceId: invoice.id,
          companyId: company.id,
          mode: "test"
        }))
      )
      expect(yield* companies.totals(company.id, "test", at(60))).toEqual({
        balancePix: invoice.amount - fee,
        balanceCard: 0,
        balanceBankSlip: 0,
        waitingPix: 0,
        waitingCard: 0,
        waitingBankSlip: 0,
        amountInvoiceTotal: invoice.amount,
        amountInvoicesCompeticion: invoice.amount
      })
      expect((yield* companies.totals(company.id, "live", at(60))).balancePix).toBe(0)

      const expired = yield* transactions.withTransaction(
        Effect.gen(function* () {
          const locked = yield* lockForMove(company, yield* anInvoice(company, { createdAt: at(0) }))
          return yield* invoices.applyTransition(locked, {
            status: "expired",
            event: "invoice.expired",
            at: at(120),
            paidAt: null,
            refundedAmount: Cents.make(0),
            movements: [],
            receivables: [],
            refund: null
          })
        })
      )
      expect(expired.timeline.map((entry) => entry.status)).toEqual(["pending", "expired"])
      expect(expired.movements).toEqual([])
      expect((yield* companies.totals(company.id, "test", at(120))).balancePix).toBe(invoice.amount - fee)
    })
  )

  it.effect("records refunds one after another; the refunded amount, the ledger and the balance follow", () =>
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const companies = yield* CompanyRepository
      const transactions = yield* Transactions
      const company = yield* aCompany()
      const invoice = yield* paidInvoice(company, 10_000)
      const refund = (amount: number, refundedAmount: number, reason: string | null, seconds: number) =>
        transactions.withTransaction(
          Effect.gen(function* () {
            const locked = yield* lockForMove(company, invoice)
            const status = refundedAmount === locked.amount ? "refunded" : "partially_refunded"
            return yield* invoices.applyTransition(locked, {
              status,
              event: `invoice.${status}`,
              at: at(seconds),
              paidAt: locked.paidAt,
              refundedAmount: Cents.make(refundedAmount),
              movements: Ledger.onTakeBack("refund", "pix", Cents.make(0), Cents.make(amount)),
              receivables: [],
              refund: { amount: Cents.make(amount), reason }
            })
          })
        )

      const partly = yield* refund(3_000, 3_000, "damaged", 60)
      expect([partly.status, partly.refundedAmount, partly.paidAt]).toEqual(["partially_refunded", 3_000, at(0)])
      expect(partly.refunds.map((entry) => [entry.amount, entry.reason, entry.status, entry.createdAt])).toEqual([
        [3_000, "damaged", "succeeded", at(60)]
      ])

      const whole = yield* refund(7_000, 10_000, null, 120)
      expect([whole.status, whole.refundedAmount]).toEqual(["refunded", 10_000])
      expect(whole.refunds.map((entry) => [entry.amount, entry.reason])).toEqual([
        [3_000, "damaged"],
        [7_000, null]
      ])
      expect(whole.refunds[0]!.id).toBeLessThan(whole.refunds[1]!.id)
      expect(whole.movements.map((entry) => [entry.type, entry.direction, entry.amount])).toEqual([
        ["payment", "credit", 10_000],
        ["fee", "debit", invoice.fee.estimatedFee],
        ["refund", "debit", 3_000],
        ["refund", "debit", 7_000]
      ])
      expect(whole.timeline.map((entry) => entry.status)).toEqual(["pending", "paid", "partially_refunded", "refunded"])
      expect(whole).toEqual(Option.getOrThrow(yield* invoices.findById(invoice.id)))
      // A refund gives money back, but the invoice was paid all the same: the paid totals keep its amount.
      expect(yield* companies.totals(company.id, "test", at(120))).toMatchObject({
        balancePix: -invoice.fee.estimatedFee,
        amountInvoiceTotal: 10_000
      })
    })
  )

  it.effect("settles a pending card invoice with its charge, paid or refused", () =>
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const companies = yield* CompanyRepository
      const transactions = yield* Transactions
      const company = yield* aCompany()
      const settle = (status: "paid" | "refused") =>
        transactions.withTransaction(
          Effect.gen(function* () {
            const invoice = yield* anInvoice(company, { method: "credit_card", amount: Cents.make(20_000) })
            const { locked, cardAssociate } = yield* lockForCardMove(company, invoice, at(60))
            const fee = { ...locked.fee, estimatedFee: Cents.make(1_037) }
            const settled = yield* invoices.settleCardPayment(locked, {
              status,
              event: `invoice.${status}`,
              refusedReason: status === "refused" ? "insufficient funds" : null,
              installments: 3,
              fee,
              card,
              cardAssociate,
              at: at(60),
              ...(status === "paid"
                ? paidNow({ ...locked, installments: 3, fee, paidAt: at(60) })
                : { movements: [], receivables: [] })
            })
            return { settled, cardAssociate, fee }
          })
        )

      const paid = yield* settle("paid")
      expect(paid.settled).toMatchObject({
        status: "paid",
        paidAt: at(60),
        updatedAt: at(60),
        refusedReason: null,
        installments: 3,
        fee: paid.fee,
        card,
        cardAssociate: paid.cardAssociate
      })
      expect(paid.settled.timeline.map((entry) => entry.status)).toEqual(["pending", "paid"])
      expect(paid.settled.movements.map((entry) => [entry.type, entry.amount, entry.balance])).toEqual([
        ["payment", 20_000, "card"],
        ["fee", 1_037, "card"]
      ])
      const receivables = yield* ReceivableRepository
      expect(
        (yield* receivables.ofInvoice(paid.settled.id)).map((receivable) => [receivable.amount, receivable.fee])
      ).toEqual([
        [6_668, 347],
        [6_666, 345],
        [6_666, 345]
      ])
      expect(Option.getOrThrow(yield* invoices.findById(paid.settled.id))).toEqual(paid.settled)

      const refused = yield* settle("refused")
      expect(refused.settled).toMatchObject({
        status: "refused",
        paidAt: null,
        refusedReason: "insufficient funds",
        card,
        movements: []
      })
      expect(refused.settled.timeline.map((entry) => entry.status)).toEqual(["pending", "refused"])
      expect(Option.getOrThrow(yield* invoices.findById(refused.settled.id))).toEqual(refused.settled)
      expect(yield* companies.totals(company.id, "test", at(60))).toMatchObject({
        balanceCard: 20_000 - 1_037,
        amountInvoiceTotal: 20_000
      })
    })
  )

  it.effect("finds the pending invoices of every company past their expiry or due date, oldest first", () =>
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const era = yield* freshEra
      const today = dateOf(era)
      const company = yield* aCompany()
      const other = yield* aCompany()
      const pixDue = (owner: Company.Company, seconds: number, expiresIn: number) => {
        const createdAt = Timestamp.plusSeconds(era, seconds)
        const invoice = draft(owner, { createdAt })
        return anInvoice(owner, {
          ...invoice,
          pix: { ...invoice.pix!, expiresAt: Timestamp.plusSeconds(createdAt, expiresIn) }
        })
      }
      const slipDue = (dueDate: string) => {
        const invoice = draft(company, { method: "bank_slip", createdAt: Timestamp.plusSeconds(era, -86_400 * 3) })
        return anInvoice(company, { ...invoice, boleto: { ...invoice.boleto!, dueDate } })
      }

      const expiredPix = yield* pixDue(company, 0, 60)
      yield* pixDue(company, 1, 600)
      const pastDueSlip = yield* slipDue(dateOf(era, -1))
      yield* slipDue(today)
      const paid = draft(company, { createdAt: era, status: "paid", paidAt: era })
      yield* anInvoice(company, { ...paid, pix: { ...paid.pix!, expiresAt: Timestamp.plusSeconds(era, 30) } })
      const othersExpiredPix = yield* pixDue(other, 2, 60)

      const now = Timestamp.plusSeconds(era, 120)
      expect(yield* invoices.findDueForExpiry(now, today, 10)).toEqual([
        { id: expiredPix.id, companyId: company.id },
        { id: pastDueSlip.id, companyId: company.id },
        { id: othersExpiredPix.id, companyId: other.id }
      ])
      expect(yield* invoices.findDueForExpiry(now, today, 1)).toEqual([{ id: expiredPix.id, companyId: company.id }])
      // A pix charge is due from its very instant of expiry on.
      expect(yield* invoices.findDueForExpiry(Timestamp.plusSeconds(era, 59), today, 10)).toEqual([
        { id: pastDueSlip.id, companyId: company.id }
      ])
      expect(yield* invoices.findDueForExpiry(Timestamp.plusSeconds(era, 60), today, 10)).toEqual([
        { id: expiredPix.id, companyId: company.id },
        { id: pastDueSlip.id, companyId: company.id }
      ])
    })
  )
}
