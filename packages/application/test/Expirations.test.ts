// Expiry (SPEC 6.1, 6.2): a pending pix expires `expires_in` after its creation, a pending boleto when its due date
// ends in São Paulo; the sweep finds them as the clock moves, and the worker's loop sweeps on its own.
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import type { Principal } from "../src/companies/Principal.js"
import { InvoiceRepository } from "../src/invoices/InvoiceRepository.js"
import { Invoices } from "../src/invoices/Invoices.js"
import { Expirations } from "../src/moves/Expirations.js"
import { InvoiceLifecycle } from "../src/moves/InvoiceLifecycle.js"
import { Transactions } from "../src/platform/Transactions.js"
import {
  boletoRequest,
  cardRequest,
  eventTypes,
  pixRequest,
  provided,
  registerMerchant,
  timestamp
} from "./support/Merchant.js"

const statusOf = (principal: Principal, reference: string) =>
  Effect.gen(function* () {
    return (yield* (yield* Invoices).find(principal, reference)).invoice.status
  })

describe("Expirations.sweep", () => {
  it.effect("a pending pix expires once its `expiresIn` has passed, not a moment before, with its event", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const { invoice } = yield* (yield* Invoices).create(principal, pixRequest({ expiresIn: 3_600 }))
        const expirations = yield* Expirations
        yield* TestClock.adjust("59 minutes")
        expect(yield* expirations.sweep).toBe(0)
        expect(yield* statusOf(principal, invoice.secureId)).toBe("pending")
        yield* TestClock.adjust("1 minute")
        expect(yield* expirations.sweep).toBe(1)
        const expired = (yield* (yield* Invoices).find(principal, invoice.secureId)).invoice
        expect(expired).toMatchObject({ status: "expired", updatedAt: timestamp("2026-03-10T16:00:00.000Z") })
        expect(expired.timeline.map((entry) => entry.status)).toEqual(["pending", "expired"])
        expect(expired.movements).toEqual([])
        expect(yield* eventTypes(principal, invoice.secureId)).toEqual(["invoice.created", "invoice.expired"])
        expect(yield* expirations.sweep).toBe(0)
      })
    )
  )

  it.effect("a pending boleto expires when its due date has ended in São Paulo", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const { invoice } = yield* (yield* Invoices).create(principal, boletoRequest({ dueDate: "2026-03-12" }))
        const expirations = yield* Expirations
        // 23:59 on the due date in São Paulo (UTC−3) is 02:59 the next day in UTC: still payable.
        yield* TestClock.setTime(Date.parse("2026-03-13T02:59:00.000Z"))
        expect(yield* expirations.sweep).toBe(0)
        yield* TestClock.adjust("1 minute")
        expect(yield* expirations.sweep).toBe(1)
        expect(yield* statusOf(principal, invoice.secureId)).toBe("expired")
      })
    )
  )

  it.effect("paid invoices and card invoices never expire; every company's due invoices do", () =>
    provided(
      Effect.gen(function* () {
        const merchant = yield* registerMerchant()
        const other = yield* registerMerchant()
        const invoices = yield* Invoices
        const paid = (yield* invoices.create(merchant.principal, pixRequest({ expiresIn: 60 }))).invoice
        yield* (yield* InvoiceLifecycle).pay(merchant.principal, paid.secureId)
        const card = (yield* invoices.create(merchant.principal, cardRequest(null))).invoice
        const due = (yield* invoices.create(other.principal, pixRequest({ expiresIn: 60 }))).invoice
        yield* TestClock.adjust("400 days")
        expect(yield* (yield* Expirations).sweep).toBe(1)
        expect(yield* statusOf(merchant.principal, paid.secureId)).toBe("paid")
        expect(yield* statusOf(merchant.principal, card.secureId)).toBe("pending")
        expect(yield* statusOf(other.principal, due.secureId)).toBe("expired")
      })
    )
  )

  it.effect("a sweep goes on, batch after batch, until nothing due is left", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        yield* Effect.forEach(Array.from({ length: 101 }), () =>
          invoices.create(principal, pixRequest({ expiresIn: 60 }))
        )
        yield* TestClock.adjust("1 minute")
        expect(yield* (yield* Expirations).sweep).toBe(101)
      })
    )
  )
})

describe("Expirations.sweep and others' locks", () => {
  it.effect("a sweep skips an invoice another transaction holds, rather than wait for it, and expires it later", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const { invoice } = yield* (yield* Invoices).create(principal, pixRequest({ expiresIn: 60 }))
        yield* TestClock.adjust("1 minute")
        const repository = yield* InvoiceRepository
        const held = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const holder = yield* Effect.forkChild(
          (yield* Transactions).withTransaction(
            Effect.gen(function* () {
              yield* repository.lock(principal.companyId, principal.mode, { _tag: "Id", id: invoice.id })
              yield* Deferred.succeed(held, undefined)
              yield* Deferred.await(release)
            })
          )
        )
        yield* Deferred.await(held)
        const expirations = yield* Expirations
        expect(yield* expirations.sweep).toBe(0)
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(holder)
        expect(yield* expirations.sweep).toBe(1)
      })
    )
  )
})

describe("Expirations.run", () => {
  it.effect("the worker's loop sweeps every interval as the clock moves", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        const worker = yield* Effect.forkChild((yield* Expirations).run("30 seconds"))
        const { invoice } = yield* invoices.create(principal, pixRequest({ expiresIn: 90 }))
        yield* TestClock.adjust("60 seconds")
        expect(yield* statusOf(principal, invoice.secureId)).toBe("pending")
        yield* TestClock.adjust("30 seconds")
        expect(yield* statusOf(principal, invoice.secureId)).toBe("expired")
        yield* Fiber.interrupt(worker)
      })
    )
  )
})
