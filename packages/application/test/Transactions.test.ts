// The Transactions port in memory: what a use case writes in a transaction commits together or not at all, a nested
// transaction is a savepoint, others see the writes only once committed, and of two transactions that wait for each
// other one gives way and runs again — unless it already acted outside, which must not happen twice.
import { describe, expect, it } from "@effect/vitest"
import type { Company } from "@fatura/domain"
import { Deferred, Effect, Exit, Fiber, Ref } from "effect"
import { CompanyRepository } from "../src/companies/CompanyRepository.js"
import { InvoiceRepository } from "../src/invoices/InvoiceRepository.js"
import { Invoices } from "../src/invoices/Invoices.js"
import { InvoiceLifecycle } from "../src/moves/InvoiceLifecycle.js"
import { Transactions } from "../src/platform/Transactions.js"
import { Postbacks } from "../src/postbacks/Postbacks.js"
import * as TestApplication from "../src/testing/TestApplication.js"
import { cardRequest, pixRequest, provided, registerMerchant } from "./support/Merchant.js"

const listAll = {
  limit: 100,
  startingAfter: null,
  status: null,
  method: null,
  createdGte: null,
  createdLte: null,
  externalRef: null
}

describe("Transactions (in memory)", () => {
  it.effect("use cases run in a transaction that then fails leave nothing behind: no invoice, event or money", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        const lifecycle = yield* InvoiceLifecycle
        const pending = (yield* invoices.create(principal, pixRequest())).invoice
        const failed = yield* Effect.exit(
          (yield* Transactions).withTransaction(
            Effect.gen(function* () {
              yield* invoices.create(principal, cardRequest(null))
              yield* lifecycle.pay(principal, pending.secureId)
              return yield* Effect.fail("the response could not be stored")
            })
          )
        )
        expect(Exit.isFailure(failed)).toBe(true)
        const page = yield* invoices.list(principal, listAll)
        expect(page.invoices.map((invoice) => [invoice.id, invoice.status])).toEqual([[pending.id, "pending"]])
        expect(page.totals).toMatchObject({ balancePix: 0, balanceCard: 0, amountInvoiceTotal: 0 })
        const events = yield* (yield* Postbacks).events(principal, { ...listAll, type: null, invoice: null })
        expect(events.events.map((event) => event.type)).toEqual(["invoice.created"])
      })
    )
  )

  it.effect("a nested transaction that fails takes back its own writes only", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        const { withTransaction } = yield* Transactions
        const kept = yield* withTransaction(
          Effect.gen(function* () {
            const outer = yield* invoices.create(principal, cardRequest(null, { externalRef: "kept" }))
            yield* withTransaction(
              Effect.andThen(
                invoices.create(principal, cardRequest(null, { externalRef: "taken back" })),
                Effect.fail("inner failure")
              )
            ).pipe(Effect.ignore)
            return outer.invoice
          })
        )
        const page = yield* invoices.list(principal, listAll)
        expect(page.invoices.map((invoice) => invoice.externalRef)).toEqual(["kept"])
        expect(page.invoices[0]!.id).toBe(kept.id)
      })
    )
  )

  it.effect("a transaction's writes are its own until it commits", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        const written = yield* Deferred.make<void>()
        const commit = yield* Deferred.make<void>()
        const writer = yield* Effect.forkChild(
          (yield* Transactions).withTransaction(
            Effect.gen(function* () {
              yield* invoices.create(principal, cardRequest(null))
              expect((yield* invoices.list(principal, listAll)).invoices).toHaveLength(1)
              yield* Deferred.succeed(written, undefined)
              yield* Deferred.await(commit)
            })
          )
        )
        yield* Deferred.await(written)
        expect((yield* invoices.list(principal, listAll)).invoices).toHaveLength(0)
        yield* Deferred.succeed(commit, undefined)
        yield* Fiber.join(writer)
        expect((yield* invoices.list(principal, listAll)).invoices).toHaveLength(1)
      })
    )
  )

  /**
   * Two transactions that lock two companies in opposite orders, each waiting until the other holds its first lock;
   * `second` asks for its second lock last, so it is the one that closes the cycle and gives way.
   */
  const crossedLocks = Effect.gen(function* () {
    const a = (yield* registerMerchant()).principal.companyId
    const b = (yield* registerMerchant()).principal.companyId
    const repository = yield* InvoiceRepository
    const transactions = yield* Transactions
    const runs = yield* Ref.make(0)
    const holds = { first: yield* Deferred.make<void>(), second: yield* Deferred.make<void>() }
    const lockBoth = (
      mine: Deferred.Deferred<void>,
      theirs: Deferred.Deferred<void>,
      order: readonly [Company.CompanyId, Company.CompanyId]
    ) =>
      transactions.withTransaction(
        Effect.gen(function* () {
          yield* Ref.update(runs, (n) => n + 1)
          yield* repository.lockCompanyLedger(order[0])
          yield* Deferred.succeed(mine, undefined)
          yield* Deferred.await(theirs)
          yield* Effect.repeat(Effect.yieldNow, { times: 100 })
          yield* repository.lockCompanyLedger(order[1])
        })
      )
    const first = yield* Effect.forkChild(lockBoth(holds.first, holds.second, [a, b]))
    const second = yield* Effect.forkChild(lockBoth(holds.second, holds.first, [b, a]))
    return {
      first: yield* Fiber.await(first),
      second: yield* Fiber.await(second),
      runs: yield* Ref.get(runs)
    }
  })

  it.effect("of two transactions waiting for each other, one gives way and runs again, and both commit", () =>
    provided(
      Effect.gen(function* () {
        const { first, second, runs } = yield* crossedLocks
        expect(Exit.isSuccess(first)).toBe(true)
        expect(Exit.isSuccess(second)).toBe(true)
        expect(runs).toBe(3)
      })
    )
  )

  it.effect("refuses a call outside the database inside a transaction: it is not made, and nothing commits", () =>
    provided(
      Effect.gen(function* () {
        const transactions = yield* Transactions
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        let calls = 0
        const exit = yield* Effect.exit(
          transactions.withTransaction(
            Effect.gen(function* () {
              yield* invoices.create(principal, cardRequest(null))
              yield* transactions.external(Effect.sync(() => calls++))
            })
          )
        )
        expect(Exit.hasDies(exit)).toBe(true)
        expect(calls).toBe(0)
        // A use case that asks a provider for a charge cannot be run inside a transaction either.
        const inside = yield* Effect.exit(transactions.withTransaction(invoices.create(principal, pixRequest())))
        expect(Exit.hasDies(inside)).toBe(true)
        expect((yield* invoices.list(principal, listAll)).invoices).toHaveLength(0)
        yield* transactions.external(Effect.sync(() => calls++))
        expect(calls).toBe(1)
      })
    )
  )

  it.effect("each build of the layer starts with an empty database", () =>
    Effect.gen(function* () {
      const count = Effect.flatMap(Effect.service(CompanyRepository), (companies) => companies.count)
      yield* Effect.provide(Effect.andThen(registerMerchant(), count), TestApplication.layer)
      expect(yield* Effect.provide(count, TestApplication.layer)).toBe(0)
    })
  )
})
