// The InvoiceRepository contract, as the lock order of moves relies on it: a company's ledger lock answers the company
// as it is; an invoice's lock is held until its transaction ends; the expiry sweep locks only what is still pending
// and skips what another transaction holds; a new invoice of a company is written while its moves wait.
import { expect } from "@effect/vitest"
import { CompanyRepository, InvoiceRepository, Transactions } from "@fatura/application"
import type { Company, Invoice } from "@fatura/domain"
import { Deferred, Effect, Fiber, Option } from "effect"
import { aCompany, anInvoice, at, byId } from "../support/Fixtures.js"
import type { Contract } from "../support/TestDatabases.js"

export const invoiceLocksContract: Contract = (it, implementation) => {
  it.effect("locks, of the invoices it is given, those still pending", () =>
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const transactions = yield* Transactions
      const company = yield* aCompany()
      const pending = yield* anInvoice(company)
      const paid = yield* anInvoice(company, { status: "paid", paidAt: at(0) })
      const later = yield* anInvoice(company)

      const locked = yield* transactions.withTransaction(invoices.lockPendingForExpiry([later.id, paid.id, pending.id]))
      expect([...locked].sort((a, b) => a - b)).toEqual([pending.id, later.id])
      expect(yield* transactions.withTransaction(invoices.lockPendingForExpiry([]))).toEqual([])
    })
  )

  it.effect("answers the company's ledger lock with the company as it is, and nothing for an unknown one", () =>
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const companies = yield* CompanyRepository
      const transactions = yield* Transactions
      const company = yield* aCompany()
      yield* companies.setBlock(company.id, "pix", true, at(30))

      const locked = yield* transactions.withTransaction(invoices.lockCompanyLedger(company.id))
      expect(Option.getOrThrow(locked)).toEqual(Option.getOrThrow(yield* companies.findById(company.id)))
      expect(Option.getOrThrow(locked).blocks.pix).toBe(true)
      const unknown = (company.id + 1_000_000) as Company.CompanyId
      expect(Option.isNone(yield* transactions.withTransaction(invoices.lockCompanyLedger(unknown)))).toBe(true)
    })
  )

  if (implementation.concurrent) {
    /** Runs `body` in a transaction of its own that holds its locks until `release` is completed. */
    const holding = <A, E, R>(
      body: Effect.Effect<A, E, R>,
      held: Deferred.Deferred<A>,
      release: Deferred.Deferred<void>
    ) =>
      Effect.gen(function* () {
        const transactions = yield* Transactions
        return yield* Effect.forkChild(
          transactions.withTransaction(
            Effect.gen(function* () {
              yield* Deferred.succeed(held, yield* body)
              yield* Deferred.await(release)
            })
          )
        )
      })

    it.effect("holds a locked invoice until its transaction ends: another lock of it waits", () =>
      Effect.gen(function* () {
        const invoices = yield* InvoiceRepository
        const transactions = yield* Transactions
        const company = yield* aCompany()
        const invoice = yield* anInvoice(company)
        const held = yield* Deferred.make<Option.Option<Invoice.Invoice>>()
        const release = yield* Deferred.make<void>()
        const holder = yield* holding(invoices.lock(company.id, "test", byId(invoice)), held, release)
        yield* Deferred.await(held)

        const waiter = yield* Effect.forkChild(
          transactions.withTransaction(invoices.lock(company.id, "test", byId(invoice)))
        )
        expect(Option.isNone(yield* Fiber.join(waiter).pipe(Effect.timeoutOption("300 millis")))).toBe(true)
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(holder)
        expect(Option.getOrThrow(yield* Fiber.join(waiter)).id).toBe(invoice.id)
      })
    )

    it.effect("skips, rather than waits for, a pending invoice that another transaction holds", () =>
      Effect.gen(function* () {
        const invoices = yield* InvoiceRepository
        const transactions = yield* Transactions
        const company = yield* aCompany()
        const taken = yield* anInvoice(company)
        const free = yield* anInvoice(company)
        const held = yield* Deferred.make<Option.Option<Invoice.Invoice>>()
        const release = yield* Deferred.make<void>()
        const holder = yield* holding(invoices.lock(company.id, "test", byId(taken)), held, release)
        yield* Deferred.await(held)

        const locked = yield* transactions
          .withTransaction(invoices.lockPendingForExpiry([taken.id, free.id]))
          .pipe(Effect.timeout("5 seconds"))
        expect(locked).toEqual([free.id])
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(holder)
      })
    )

    it.effect("serializes the moves of one company, but lets a new invoice of it be written meanwhile", () =>
      Effect.gen(function* () {
        const invoices = yield* InvoiceRepository
        const transactions = yield* Transactions
        const company = yield* aCompany()
        const held = yield* Deferred.make<Option.Option<Company.Company>>()
        const release = yield* Deferred.make<void>()
        const holder = yield* holding(invoices.lockCompanyLedger(company.id), held, release)
        yield* Deferred.await(held)

        const created = yield* transactions.withTransaction(anInvoice(company)).pipe(Effect.timeout("5 seconds"))
        expect(created.companyId).toBe(company.id)
        const mover = yield* Effect.forkChild(transactions.withTransaction(invoices.lockCompanyLedger(company.id)))
        expect(Option.isNone(yield* Fiber.join(mover).pipe(Effect.timeoutOption("300 millis")))).toBe(true)
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(holder)
        expect(Option.isSome(yield* Fiber.join(mover))).toBe(true)
      })
    )
  }
}
