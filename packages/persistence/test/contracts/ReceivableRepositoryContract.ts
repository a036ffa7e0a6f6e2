// The ReceivableRepository contract, as receivables rely on it (SPEC 13.1): a payment's receivables stored with it
// and read back in order; the company's schedule by day, filtered and paged, another's never among it; the due ones
// locked for a sweep, skipping those a move holds; settling moves their money between the buckets, once.
import { expect } from "@effect/vitest"
import {
  CompanyRepository,
  InvoiceRepository,
  type OwnedReceivable,
  type ReceivableFilter,
  ReceivableRepository,
  Transactions
} from "@fatura/application"
import { BusinessCalendar, Cents, type Company, FeePlan, type Invoice, Receivable, Timestamp } from "@fatura/domain"
import { Deferred, Effect, Fiber, Option } from "effect"
import { aCompany, anInvoice, draft, lockForMove } from "../support/Fixtures.js"
import type { Contract } from "../support/TestDatabases.js"

// Each case pays on days of its own, 400 days before the case that ran before it: nothing another case wrote is ever
// due by the days it sweeps.
let erasTaken = 0
const anEra = Effect.sync(() => {
  erasTaken += 1
  return Timestamp.plusSeconds("2015-06-01T15:00:00.000000Z" as Timestamp.Timestamp, -erasTaken * 400 * 86_400)
})

const dayOf = BusinessCalendar.saoPauloDate

/** A card invoice of `company` paid at `paidAt` in `installments`, with its receivables on the default plan. */
const aCardSale = (
  company: Company.Company,
  paidAt: Timestamp.Timestamp,
  installments = 3,
  mode: Invoice.Mode = "test"
) => {
  const invoice = draft(company, {
    method: "credit_card",
    mode,
    installments,
    amount: Cents.make(30_000),
    status: "paid",
    createdAt: paidAt,
    updatedAt: paidAt,
    paidAt,
    pix: null
  })
  return anInvoice(
    company,
    invoice,
    Receivable.schedule(FeePlan.defaultFeePlan, {
      method: "credit_card",
      installments,
      amount: invoice.amount,
      fee: Cents.make(invoice.fee.estimatedFee),
      paidAt
    })
  )
}

const schedule = (company: Company.Company, changes: Partial<ReceivableFilter> = {}) =>
  Effect.flatMap(ReceivableRepository, (receivables) =>
    receivables.list({
      companyId: company.id,
      mode: "test",
      afterId: null,
      status: null,
      invoiceId: null,
      paymentDateGte: null,
      paymentDateLte: null,
      limit: 100,
      ...changes
    })
  )

/** Settles `due` on `on`, as the sweep does, in a transaction. */
const settleOn = (due: ReadonlyArray<OwnedReceivable>, on: BusinessCalendar.CalendarDate, at: Timestamp.Timestamp) =>
  Effect.gen(function* () {
    const receivables = yield* ReceivableRepository
    yield* (yield* Transactions).withTransaction(
      receivables.settle(
        due.map((receivable) => ({ ...Receivable.settle(receivable, on), receivable })),
        at
      )
    )
  })

export const receivableRepositoryContract: Contract = (it, implementation) => {
  it.effect("stores a payment's receivables with it, read back in order and listed by day", () =>
    Effect.gen(function* () {
      const receivables = yield* ReceivableRepository
      const paidAt = yield* anEra
      const company = yield* aCompany()
      const invoice = yield* aCardSale(company, paidAt)
      const expected = Receivable.schedule(FeePlan.defaultFeePlan, {
        method: "credit_card",
        installments: 3,
        amount: invoice.amount,
        fee: Cents.make(invoice.fee.estimatedFee),
        paidAt
      }).receivables

      const stored = yield* receivables.ofInvoice(invoice.id)
      expect(stored.map(({ id: _, ...receivable }) => receivable)).toEqual(
        expected.map((receivable) => ({ ...receivable, invoiceId: invoice.id, companyId: company.id, mode: "test" }))
      )
      expect(stored.map((receivable) => receivable.id)).toEqual(
        stored.map((receivable) => receivable.id).sort((a, b) => a - b)
      )
      expect(yield* schedule(company)).toEqual(
        stored.map(({ invoiceId: _, companyId: __, mode: ___, ...receivable }) => ({
          ...receivable,
          invoiceId: invoice.secureId,
          anticipationFee: 0,
          createdAt: paidAt,
          updatedAt: paidAt
        }))
      )
      expect(yield* receivables.has(company.id, "test", stored[0]!.id)).toBe(true)
      expect(yield* receivables.has(company.id, "live", stored[0]!.id)).toBe(false)
      expect(yield* receivables.has((yield* aCompany()).id, "test", stored[0]!.id)).toBe(false)
    })
  )

  it.effect("lists a company's schedule of one mode by day then id, filtered and paged", () =>
    Effect.gen(function* () {
      const paidAt = yield* anEra
      const company = yield* aCompany()
      // Two sales the same instant: their installments share days, ordered by id within a day.
      const first = yield* aCardSale(company, paidAt)
      const second = yield* aCardSale(company, paidAt, 2)
      yield* aCardSale(company, paidAt, 1, "live")
      yield* aCardSale(yield* aCompany(), paidAt)

      const all = yield* schedule(company)
      expect(all.map((receivable) => [receivable.invoiceId, receivable.installment])).toEqual([
        [first.secureId, 1],
        [second.secureId, 1],
        [first.secureId, 2],
        [second.secureId, 2],
        [first.secureId, 3]
      ])
      for (let n = 0; n < all.length; n++) {
        expect(yield* schedule(company, { afterId: all[n]!.id })).toEqual(all.slice(n + 1))
      }
      expect(yield* schedule(company, { limit: 2 })).toEqual(all.slice(0, 3))
      expect(yield* schedule(company, { invoiceId: second.secureId })).toEqual(
        all.filter((receivable) => receivable.invoiceId === second.secureId)
      )
      const secondDay = all[2]!.paymentDate
      expect(yield* schedule(company, { paymentDateGte: secondDay, paymentDateLte: secondDay })).toEqual(
        all.slice(2, 4)
      )
      expect(yield* schedule(company, { status: "available" })).toEqual([])
      expect(yield* schedule(company, { status: "waiting_funds" })).toEqual(all)
      expect(yield* schedule(company, { mode: "live" })).toHaveLength(1)
    })
  )

  it.effect("locks what is due for a sweep, in order; settling moves its money between the buckets once", () =>
    Effect.gen(function* () {
      const receivables = yield* ReceivableRepository
      const companies = yield* CompanyRepository
      const transactions = yield* Transactions
      const paidAt = yield* anEra
      const company = yield* aCompany()
      const invoice = yield* aCardSale(company, paidAt)
      const [first, second, third] = yield* receivables.ofInvoice(invoice.id)
      const totals = () => companies.totals(company.id, "test", paidAt)
      const before = yield* totals()
      expect([before.balanceCard, before.waitingCard]).toEqual([0, invoice.fee.netAmount])

      const dueBy = (today: BusinessCalendar.CalendarDate, limit = 10) =>
        transactions.withTransaction(receivables.lockDue(today, limit))
      expect(yield* dueBy(BusinessCalendar.plusDays(first!.paymentDate, -1))).toEqual([])
      expect(yield* dueBy(second!.paymentDate)).toEqual([first, second])
      expect(yield* dueBy(third!.paymentDate, 1)).toEqual([first])

      yield* settleOn([first!], first!.paymentDate, paidAt)
      // Released early, the second is available from the day it is released.
      const early = dayOf(paidAt)
      yield* settleOn([second!], early, paidAt)
      const after = yield* totals()
      const moved = first!.netAmount + second!.netAmount
      expect([after.balanceCard, after.waitingCard]).toEqual([moved, invoice.fee.netAmount - moved])
      expect((yield* schedule(company)).map((receivable) => [receivable.status, receivable.paymentDate])).toEqual([
        ["available", early],
        ["available", first!.paymentDate],
        ["waiting_funds", third!.paymentDate]
      ])
      expect(yield* dueBy(third!.paymentDate)).toEqual([third])

      // Settling what is available already moves nothing more.
      yield* settleOn([first!, second!], first!.paymentDate, paidAt)
      expect(yield* totals()).toEqual(after)
      const invoices = yield* InvoiceRepository
      const entries = Option.getOrThrow(yield* invoices.findById(invoice.id)).movements
      expect(entries.map((entry) => [entry.type, entry.direction, entry.amount, entry.bucket])).toEqual([
        ["payment", "credit", invoice.amount, "waiting"],
        ["fee", "debit", invoice.fee.estimatedFee, "waiting"],
        ["settlement", "debit", first!.netAmount, "waiting"],
        ["settlement", "credit", first!.netAmount, "available"],
        ["settlement", "debit", second!.netAmount, "waiting"],
        ["settlement", "credit", second!.netAmount, "available"]
      ])
      yield* settleOn([third!], third!.paymentDate, paidAt)
    })
  )

  if (implementation.concurrent) {
    it.effect("skips the receivables of an invoice a move holds, and those another sweep holds", () =>
      Effect.gen(function* () {
        const receivables = yield* ReceivableRepository
        const transactions = yield* Transactions
        const paidAt = yield* anEra
        const company = yield* aCompany()
        const held = yield* aCardSale(company, paidAt, 1)
        const free = yield* aCardSale(company, paidAt, 1)
        const [heldReceivable] = yield* receivables.ofInvoice(held.id)
        const [freeReceivable] = yield* receivables.ofInvoice(free.id)
        const today = heldReceivable!.paymentDate

        const locked = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const move = yield* Effect.forkChild(
          transactions.withTransaction(
            Effect.gen(function* () {
              yield* lockForMove(company, held)
              yield* Deferred.succeed(locked, undefined)
              yield* Deferred.await(release)
            })
          )
        )
        yield* Deferred.await(locked)
        expect(yield* transactions.withTransaction(receivables.lockDue(today, 10))).toEqual([freeReceivable])

        // A sweep holding the free one: another sweep takes nothing of it, and does not wait.
        const sweeping = yield* Deferred.make<void>()
        const done = yield* Deferred.make<void>()
        const sweep = yield* Effect.forkChild(
          transactions.withTransaction(
            Effect.gen(function* () {
              yield* receivables.lockDue(today, 10)
              yield* Deferred.succeed(sweeping, undefined)
              yield* Deferred.await(done)
            })
          )
        )
        yield* Deferred.await(sweeping)
        expect(yield* transactions.withTransaction(receivables.lockDue(today, 10))).toEqual([])
        yield* Deferred.succeed(done, undefined)
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(sweep)
        yield* Fiber.join(move)
        const due = yield* transactions.withTransaction(receivables.lockDue(today, 10))
        expect(due).toEqual([heldReceivable, freeReceivable])
        yield* settleOn(due, today, paidAt)
      })
    )
  }
}
