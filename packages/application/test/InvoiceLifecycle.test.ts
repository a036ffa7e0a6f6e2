// Moves of an invoice after its creation (SPEC 4.4, 4.9, 7.1, 7.4): the sandbox payment, refunds and chargebacks,
// each writing its status, timeline entry, ledger entries and event together, one move of a company at a time.
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber } from "effect"
import { InvoiceRepository } from "../src/invoices/InvoiceRepository.js"
import { Invoices } from "../src/invoices/Invoices.js"
import { InvoiceLifecycle } from "../src/moves/InvoiceLifecycle.js"
import { Transactions } from "../src/platform/Transactions.js"
import { Receivables } from "../src/receivables/Receivables.js"
import {
  boletoRequest,
  buckets,
  cardRequest,
  eventTypes,
  ledger,
  liveMode,
  pixRequest,
  provided,
  registerMerchant
} from "./support/Merchant.js"

describe("InvoiceLifecycle.pay", () => {
  it.effect(
    "the sandbox pays a pending pix invoice: paid now, payment and fee in the ledger, the pix balance net",
    () =>
      provided(
        Effect.gen(function* () {
          const { principal } = yield* registerMerchant()
          const { invoice } = yield* (yield* Invoices).create(principal, pixRequest())
          const paid = yield* (yield* InvoiceLifecycle).pay(principal, invoice.secureId)
          expect(paid.invoice).toMatchObject({ status: "paid", paidAt: paid.invoice.updatedAt })
          expect(paid.invoice.timeline.map((entry) => entry.status)).toEqual(["pending", "paid"])
          // 1.99% of R$ 100,00 (SPEC 7.2).
          expect(ledger(paid.invoice)).toEqual([
            ["payment", "credit", 10_000],
            ["fee", "debit", 199]
          ])
          // A pix is available the moment it is paid (SPEC 13.1).
          expect(paid.totals).toMatchObject({ balancePix: 9_801, waitingPix: 0, balanceCard: 0, balanceBankSlip: 0 })
          expect(yield* eventTypes(principal, invoice.secureId)).toEqual(["invoice.created", "invoice.paid"])
        })
      )
  )

  it.effect("only a pending invoice is paid, never twice, never a card one, and never with a live key", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        const lifecycle = yield* InvoiceLifecycle
        const boleto = (yield* invoices.create(principal, boletoRequest())).invoice
        yield* lifecycle.pay(principal, boleto.secureId)
        expect(yield* Effect.flip(lifecycle.pay(principal, boleto.secureId))).toMatchObject({ _tag: "MoveNotAllowed" })
        const card = (yield* invoices.create(principal, cardRequest(null))).invoice
        expect(yield* Effect.flip(lifecycle.pay(principal, card.secureId))).toMatchObject({ _tag: "MoveNotAllowed" })
        const live = yield* liveMode(principal)
        const livePix = (yield* invoices.create(live, pixRequest())).invoice
        expect(yield* Effect.flip(lifecycle.pay(live, livePix.secureId))).toMatchObject({ _tag: "SandboxOnly" })
        const reread = yield* invoices.find(principal, boleto.secureId)
        expect(reread.invoice.movements).toHaveLength(2)
        // A boleto waits for the next business day (SPEC 13.1).
        expect(reread.totals).toMatchObject({ balanceBankSlip: 0, waitingBankSlip: 10_000 - 349 })
      })
    )
  )
})

describe("InvoiceLifecycle.refund", () => {
  /**
   * A paid card invoice of 100,00, waiting for its day, and the card balance to refund it from: another sale of
   * 500,00, released.
   */
  const paidCardInvoice = Effect.gen(function* () {
    const { principal } = yield* registerMerchant()
    const invoices = yield* Invoices
    const other = yield* invoices.create(principal, cardRequest({}, { totalPriceCents: 50_000 }))
    yield* (yield* Receivables).release(principal, other.invoice.secureId)
    const { invoice } = yield* invoices.create(principal, cardRequest())
    return { principal, invoice }
  })

  it.effect(
    "refunds part, part again, then the rest: each with its refund record, debit, timeline entry and event",
    () =>
      provided(
        Effect.gen(function* () {
          const { principal, invoice } = yield* paidCardInvoice
          const lifecycle = yield* InvoiceLifecycle
          const first = yield* lifecycle.refund(principal, invoice.secureId, 3_000, "item danificado")
          expect(first.invoice).toMatchObject({ status: "partially_refunded", refundedAmount: 3_000 })
          const second = yield* lifecycle.refund(principal, String(invoice.id), 2_000, null)
          expect(second.invoice).toMatchObject({ status: "partially_refunded", refundedAmount: 5_000 })
          const rest = yield* lifecycle.refund(principal, invoice.secureId, null, null)
          expect(rest.invoice).toMatchObject({ status: "refunded", refundedAmount: 10_000 })
          expect(rest.invoice.refunds.map((refund) => [refund.amount, refund.reason])).toEqual([
            [3_000, "item danificado"],
            [2_000, null],
            [5_000, null]
          ])
          // Out of its own waiting receivable first (10 000 − 438), the rest out of the available balance.
          expect(buckets(rest.invoice).slice(2)).toEqual([
            ["refund", "debit", 3_000, "waiting"],
            ["refund", "debit", 2_000, "waiting"],
            ["refund", "debit", 4_562, "waiting"],
            ["refund", "debit", 438, "available"]
          ])
          expect(rest.invoice.timeline.map((entry) => entry.status)).toEqual([
            "pending",
            "paid",
            "partially_refunded",
            "partially_refunded",
            "refunded"
          ])
          // Both sales net of their fees (50 000 − 2 034, 10 000 − 438), less the refunds: the fee is not returned.
          expect(rest.totals.balanceCard + rest.totals.waitingCard).toBe(50_000 - 2_034 + 10_000 - 438 - 10_000)
          expect(rest.totals).toMatchObject({ balanceCard: 50_000 - 2_034 - 438, waitingCard: 0 })
          expect(yield* eventTypes(principal, invoice.secureId)).toEqual([
            "invoice.created",
            "invoice.paid",
            "invoice.partially_refunded",
            "invoice.partially_refunded",
            "invoice.refunded"
          ])
        })
      )
  )

  it.effect("a full refund at once refunds everything left", () =>
    provided(
      Effect.gen(function* () {
        const { principal, invoice } = yield* paidCardInvoice
        const refunded = yield* (yield* InvoiceLifecycle).refund(principal, invoice.secureId, 10_000, null)
        expect(refunded.invoice).toMatchObject({ status: "refunded", refundedAmount: 10_000 })
        expect(refunded.invoice.timeline.map((entry) => entry.status)).toEqual(["pending", "paid", "refunded"])
      })
    )
  )

  it.effect("a refund beyond what is left is refused and changes nothing", () =>
    provided(
      Effect.gen(function* () {
        const { principal, invoice } = yield* paidCardInvoice
        const lifecycle = yield* InvoiceLifecycle
        yield* lifecycle.refund(principal, invoice.secureId, 6_000, null)
        const excess = yield* Effect.flip(lifecycle.refund(principal, invoice.secureId, 4_001, null))
        expect(excess).toMatchObject({ _tag: "RefundExceedsRemaining", requested: 4_001, remaining: 4_000 })
        const reread = yield* (yield* Invoices).find(principal, invoice.secureId)
        expect(reread.invoice).toMatchObject({ status: "partially_refunded", refundedAmount: 6_000 })
        expect(reread.invoice.refunds).toHaveLength(1)
        expect(reread.totals).toMatchObject({ balanceCard: 50_000 - 2_034, waitingCard: 10_000 - 438 - 6_000 })
      })
    )
  )

  it.effect("a refund the method's balance cannot cover is refused; the fee already taken counts against it", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const { invoice } = yield* (yield* Invoices).create(principal, cardRequest())
        const lifecycle = yield* InvoiceLifecycle
        // The only sale waits with 9 562, and nothing is available: a full refund of 10 000 is more than that.
        const refused = yield* Effect.flip(lifecycle.refund(principal, invoice.secureId, null, null))
        expect(refused).toMatchObject({ _tag: "InsufficientBalance", balance: 9_562, required: 10_000 })
        const partial = yield* lifecycle.refund(principal, invoice.secureId, 9_562, null)
        expect(partial.totals).toMatchObject({ balanceCard: 0, waitingCard: 0 })
        expect(yield* eventTypes(principal, invoice.secureId)).toEqual([
          "invoice.created",
          "invoice.paid",
          "invoice.partially_refunded"
        ])
      })
    )
  )

  it.effect("balances are per method: a pix balance does not pay for a card refund", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        const lifecycle = yield* InvoiceLifecycle
        const pix = (yield* invoices.create(principal, pixRequest({ totalPriceCents: 100_000 }))).invoice
        yield* lifecycle.pay(principal, pix.secureId)
        const card = (yield* invoices.create(principal, cardRequest({}, { totalPriceCents: 1_000 }))).invoice
        const refused = yield* Effect.flip(lifecycle.refund(principal, card.secureId, null, null))
        expect(refused).toMatchObject({ _tag: "InsufficientBalance", required: 1_000 })
      })
    )
  )

  it.effect("only a paid or partially refunded invoice is refunded", () =>
    provided(
      Effect.gen(function* () {
        const { principal, invoice } = yield* paidCardInvoice
        const invoices = yield* Invoices
        const lifecycle = yield* InvoiceLifecycle
        const pending = (yield* invoices.create(principal, pixRequest())).invoice
        expect(yield* Effect.flip(lifecycle.refund(principal, pending.secureId, null, null))).toMatchObject({
          _tag: "MoveNotAllowed"
        })
        yield* lifecycle.refund(principal, invoice.secureId, null, null)
        expect(yield* Effect.flip(lifecycle.refund(principal, invoice.secureId, 100, null))).toMatchObject({
          _tag: "MoveNotAllowed"
        })
      })
    )
  )

  it.effect("another company's invoice is not found, and cannot be refunded", () =>
    provided(
      Effect.gen(function* () {
        const { invoice } = yield* paidCardInvoice
        const other = yield* registerMerchant()
        expect(
          yield* Effect.flip((yield* InvoiceLifecycle).refund(other.principal, invoice.secureId, null, null))
        ).toMatchObject({ _tag: "InvoiceNotFound" })
      })
    )
  )

  it.effect("a refund waits for the company's other money move to end, and sees it in the balance", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        const lifecycle = yield* InvoiceLifecycle
        const first = (yield* invoices.create(principal, cardRequest({}, { totalPriceCents: 20_000 }))).invoice
        const second = (yield* invoices.create(principal, cardRequest({}, { totalPriceCents: 20_000 }))).invoice
        yield* (yield* Receivables).release(principal, first.secureId)
        yield* (yield* Receivables).release(principal, second.secureId)
        // Two sales of 200,00 leave 2 × (20 000 − 837) in the card balance: enough for one full refund, not two.
        const locked = yield* Deferred.make<void>()
        const finish = yield* Deferred.make<void>()
        const repository = yield* InvoiceRepository
        const holder = yield* (yield* Transactions)
          .withTransaction(
            Effect.gen(function* () {
              yield* repository.lockCompanyLedger(principal.companyId)
              yield* Deferred.succeed(locked, undefined)
              yield* Deferred.await(finish)
              return yield* lifecycle.refund(principal, first.secureId, null, null)
            })
          )
          .pipe(Effect.forkChild)
        yield* Deferred.await(locked)
        const waiting = yield* Effect.forkChild(lifecycle.refund(principal, second.secureId, null, null))
        // Time enough for the refund to end, were it not waiting.
        yield* Effect.repeat(Effect.yieldNow, { times: 100 })
        expect(waiting.pollUnsafe()).toBeUndefined()
        yield* Deferred.succeed(finish, undefined)
        expect((yield* Fiber.join(holder)).invoice.status).toBe("refunded")
        expect(yield* Effect.flip(Fiber.join(waiting))).toMatchObject({
          _tag: "InsufficientBalance",
          balance: 20_000 - 837 * 2,
          required: 20_000
        })
      })
    )
  )
})

describe("InvoiceLifecycle.chargeback", () => {
  it.effect("takes back what was not refunded; the balance may go below zero", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        const lifecycle = yield* InvoiceLifecycle
        const { invoice } = yield* invoices.create(principal, cardRequest())
        yield* lifecycle.refund(principal, invoice.secureId, 4_000, null)
        const chargedback = yield* lifecycle.chargeback(principal, invoice.secureId)
        expect(chargedback.invoice.status).toBe("chargedback")
        // Out of the invoice's waiting receivable (10 000 − 438 − 4 000), the rest out of the available balance.
        expect(buckets(chargedback.invoice).slice(2)).toEqual([
          ["refund", "debit", 4_000, "waiting"],
          ["chargeback", "debit", 5_562, "waiting"],
          ["chargeback", "debit", 438, "available"]
        ])
        expect(chargedback.totals).toMatchObject({ balanceCard: 10_000 - 438 - 10_000, waitingCard: 0 })
        const pix = (yield* invoices.create(principal, pixRequest())).invoice
        yield* lifecycle.pay(principal, pix.secureId)
        expect(yield* Effect.flip(lifecycle.chargeback(principal, pix.secureId))).toMatchObject({
          _tag: "MoveNotAllowed"
        })
      })
    )
  )
})
