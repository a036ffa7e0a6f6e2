// Receivables (SPEC 7.4, 13.1): every payment is scheduled on the business-day calendar, waits in its balance's
// waiting bucket until its day, and the sweep (or the sandbox's release) makes it available; refunds and chargebacks
// take back from the invoice's waiting receivables first, latest first, as negative receivables.
import { describe, expect, it } from "@effect/vitest"
import type { BusinessCalendar } from "@fatura/domain"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { Companies } from "../src/companies/Companies.js"
import type { Principal } from "../src/companies/Principal.js"
import { Invoices } from "../src/invoices/Invoices.js"
import { InvoiceLifecycle } from "../src/moves/InvoiceLifecycle.js"
import { type ReceivableQuery, Receivables } from "../src/receivables/Receivables.js"
import {
  boletoRequest,
  buckets,
  cardRequest,
  liveMode,
  pixRequest,
  provided,
  registerMerchant
} from "./support/Merchant.js"

const everything: ReceivableQuery = {
  limit: 100,
  startingAfter: null,
  status: null,
  invoice: null,
  paymentDateGte: null,
  paymentDateLte: null
}

const schedule = (principal: Principal, query: Partial<ReceivableQuery> = {}) =>
  Effect.map(
    Effect.flatMap(Receivables, (receivables) => receivables.list(principal, { ...everything, ...query })),
    (page) =>
      page.receivables.map((receivable) => [
        receivable.installment,
        receivable.netAmount,
        receivable.status,
        receivable.paymentDate
      ])
  )

const day = (date: string) => date as BusinessCalendar.CalendarDate

/** Midnight in São Paulo of `date`: the instant its receivables fall due. */
const midnightOf = (date: string) => Date.parse(`${date}T03:00:00.000Z`)

describe("Receivables", () => {
  it.effect("a card sale in 3 installments is paid 30, 60 and 90 days on, each moved to a business day", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const { invoice, totals } = yield* (yield* Invoices).create(
          principal,
          cardRequest({ installment: 3 }, { totalPriceCents: 10_000 })
        )
        // 4.99% + R$ 0,39 of R$ 100,00 = 538, over 3: 180 + 179 + 179; 10 000 over 3: 3 334 + 3 333 + 3 333.
        expect(yield* schedule(principal)).toEqual([
          // 2026-03-10 + 30: Thursday 9 April.
          [1, 3_334 - 180, "waiting_funds", "2026-04-09"],
          // + 60: Saturday 9 May, paid on Monday the 11th.
          [2, 3_333 - 179, "waiting_funds", "2026-05-11"],
          // + 90: Monday 8 June (Corpus Christi is the 4th).
          [3, 3_333 - 179, "waiting_funds", "2026-06-08"]
        ])
        expect(totals).toMatchObject({ balanceCard: 0, waitingCard: 10_000 - 538 })
        expect(buckets(invoice)).toEqual([
          ["payment", "credit", 10_000, "waiting"],
          ["fee", "debit", 538, "waiting"]
        ])
      })
    )
  )

  it.effect("a pix is available at once; a boleto paid on Thursday before Good Friday waits until Monday", () =>
    provided(
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.parse("2026-04-02T20:00:00.000Z"))
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        const lifecycle = yield* InvoiceLifecycle
        const pix = (yield* invoices.create(principal, pixRequest())).invoice
        yield* lifecycle.pay(principal, pix.secureId)
        const boleto = (yield* invoices.create(principal, boletoRequest())).invoice
        const paid = yield* lifecycle.pay(principal, boleto.secureId)
        expect(yield* schedule(principal)).toEqual([
          [1, 10_000 - 199, "available", "2026-04-02"],
          [1, 10_000 - 349, "waiting_funds", "2026-04-06"]
        ])
        expect(paid.totals).toMatchObject({
          balancePix: 10_000 - 199,
          waitingPix: 0,
          balanceBankSlip: 0,
          waitingBankSlip: 10_000 - 349
        })
      })
    )
  )

  it.effect("the sweep makes what is due available, moving it between the buckets; twice changes nothing", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const receivables = yield* Receivables
        const { invoice } = yield* (yield* Invoices).create(principal, cardRequest({ installment: 3 }))
        expect(yield* receivables.sweep).toBe(0)
        // One microsecond before the first installment's day: nothing yet.
        yield* TestClock.setTime(midnightOf("2026-04-09") - 1)
        expect(yield* receivables.sweep).toBe(0)
        yield* TestClock.setTime(midnightOf("2026-04-09"))
        expect(yield* receivables.sweep).toBe(1)
        expect(yield* receivables.sweep).toBe(0)
        const { totals } = yield* (yield* Companies).info(principal)
        expect(totals).toMatchObject({ balanceCard: 3_334 - 180, waitingCard: 2 * (3_333 - 179) })
        const reread = yield* (yield* Invoices).find(principal, invoice.secureId)
        expect(buckets(reread.invoice).slice(2)).toEqual([
          ["settlement", "debit", 3_334 - 180, "waiting"],
          ["settlement", "credit", 3_334 - 180, "available"]
        ])
        expect((yield* schedule(principal)).map(([, , status]) => status)).toEqual([
          "available",
          "waiting_funds",
          "waiting_funds"
        ])
      })
    )
  )

  it.effect("a refund takes back from the latest waiting installments first, then from the available balance", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const receivables = yield* Receivables
        const lifecycle = yield* InvoiceLifecycle
        const { invoice } = yield* (yield* Invoices).create(principal, cardRequest({ installment: 3 }))
        yield* TestClock.setTime(midnightOf("2026-04-09"))
        yield* receivables.sweep
        // 3 154 of each of installments 3 and 2, then 692 of the available first one.
        const refunded = yield* lifecycle.refund(principal, invoice.secureId, 7_000, null)
        expect(buckets(refunded.invoice).slice(4)).toEqual([
          ["refund", "debit", 6_308, "waiting"],
          ["refund", "debit", 692, "available"]
        ])
        expect(yield* schedule(principal)).toEqual([
          [1, 3_154, "available", "2026-04-09"],
          [1, -692, "available", "2026-04-09"],
          [2, 3_154, "waiting_funds", "2026-05-11"],
          [2, -3_154, "waiting_funds", "2026-05-11"],
          [3, 3_154, "waiting_funds", "2026-06-08"],
          [3, -3_154, "waiting_funds", "2026-06-08"]
        ])
        expect(refunded.totals).toMatchObject({ balanceCard: 3_154 - 692, waitingCard: 0 })
        // Their days come: each installment and what was taken back from it settle together, to nothing.
        yield* TestClock.setTime(midnightOf("2026-06-08"))
        expect(yield* receivables.sweep).toBe(4)
        const { totals } = yield* (yield* Companies).info(principal)
        expect(totals).toMatchObject({ balanceCard: 3_154 - 692, waitingCard: 0 })
      })
    )
  )

  it.effect("the sandbox releases an invoice's waiting receivables now; live keys and others' invoices cannot", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const receivables = yield* Receivables
        const { invoice } = yield* (yield* Invoices).create(principal, cardRequest({ installment: 2 }))
        const released = yield* receivables.release(principal, invoice.secureId)
        expect(released.totals).toMatchObject({ balanceCard: 10_000 - 538, waitingCard: 0 })
        expect(yield* schedule(principal)).toEqual([
          [1, 5_000 - 269, "available", "2026-03-10"],
          [2, 5_000 - 269, "available", "2026-03-10"]
        ])
        const originals = (yield* receivables.list(principal, everything)).receivables.map(
          (receivable) => receivable.originalPaymentDate
        )
        expect(originals).toEqual(["2026-04-09", "2026-05-11"])
        // Nothing waits any more: a second release changes nothing.
        expect((yield* receivables.release(principal, String(invoice.id))).totals).toEqual(released.totals)
        expect(yield* Effect.flip(receivables.release(yield* liveMode(principal), invoice.secureId))).toMatchObject({
          _tag: "SandboxOnly"
        })
        const other = yield* registerMerchant()
        expect(yield* Effect.flip(receivables.release(other.principal, invoice.secureId))).toMatchObject({
          _tag: "InvoiceNotFound"
        })
      })
    )
  )

  it.effect("lists the caller's schedule by day, filtered and paged; another's invoice or cursor is not theirs", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const receivables = yield* Receivables
        const invoices = yield* Invoices
        const first = (yield* invoices.create(principal, cardRequest({ installment: 3 }))).invoice
        const second = (yield* invoices.create(principal, cardRequest({ installment: 2 }))).invoice
        yield* receivables.release(principal, second.secureId)
        const other = yield* registerMerchant()
        const others = (yield* invoices.create(other.principal, cardRequest())).invoice

        const all = (yield* receivables.list(principal, everything)).receivables
        expect(all.map((receivable) => [receivable.invoiceId, receivable.paymentDate])).toEqual([
          [second.secureId, "2026-03-10"],
          [second.secureId, "2026-03-10"],
          [first.secureId, "2026-04-09"],
          [first.secureId, "2026-05-11"],
          [first.secureId, "2026-06-08"]
        ])
        const page = yield* receivables.list(principal, { ...everything, limit: 2 })
        expect([page.receivables.map((receivable) => receivable.id), page.hasMore]).toEqual([
          all.slice(0, 2).map((receivable) => receivable.id),
          true
        ])
        const next = yield* receivables.list(principal, { ...everything, startingAfter: all[1]!.id })
        expect(next.receivables).toEqual(all.slice(2))
        expect((yield* schedule(principal, { status: "available" })).length).toBe(2)
        expect((yield* schedule(principal, { invoice: first.secureId })).length).toBe(3)
        expect((yield* schedule(principal, { invoice: String(first.id) })).length).toBe(3)
        expect(
          yield* schedule(principal, { paymentDateGte: day("2026-04-10"), paymentDateLte: day("2026-05-11") })
        ).toEqual([[2, 3_154, "waiting_funds", "2026-05-11"]])
        expect(yield* Effect.flip(schedule(principal, { invoice: others.secureId }))).toMatchObject({
          _tag: "InvoiceNotFound"
        })
        expect(yield* schedule(other.principal)).toHaveLength(1)
        expect(
          yield* Effect.flip(receivables.list(other.principal, { ...everything, startingAfter: all[0]!.id }))
        ).toMatchObject({ _tag: "UnknownCursor" })
      })
    )
  )
})
