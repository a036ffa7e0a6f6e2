// Retention (SPEC 8.1, 9): a stored response to a request with an Idempotency-Key is replayed for 24 h and then
// forgotten; an event is kept 30 days and then goes with its deliveries, unless a delivery of it still waits to be
// sent. Both periods are settings; the worker's loop purges on its own as the clock moves.
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Duration, Effect, Fiber, Layer } from "effect"
import { TestClock } from "effect/testing"
import type { Principal } from "../src/companies/Principal.js"
import { Invoices } from "../src/invoices/Invoices.js"
import * as Clock from "../src/platform/Clock.js"
import { type IdempotencyScope, IdempotencyStore } from "../src/platform/IdempotencyStore.js"
import { Retention, RetentionPeriods } from "../src/platform/Retention.js"
import { Transactions } from "../src/platform/Transactions.js"
import { PostbackRepository } from "../src/postbacks/PostbackRepository.js"
import { Postbacks } from "../src/postbacks/Postbacks.js"
import { pixRequest, provided, registerMerchant } from "./support/Merchant.js"

const postbackUrl = "https://loja.example.com/fatura"

const scopeOf = (key: string): IdempotencyScope => ({
  principal: "checkout 8f14e45f",
  companyId: null,
  endpoint: "POST /api/v2/public/invoices/:secureId/pay",
  key
})

/** A request with this Idempotency-Key, run now: its response is stored with it. */
const answered = (key: string) =>
  Effect.gen(function* () {
    const store = yield* IdempotencyStore
    yield* (yield* Transactions).withTransaction(
      Effect.gen(function* () {
        yield* store.claim(scopeOf(key), "hash-a")
        yield* store.complete(scopeOf(key), "hash-a", { status: 201, body: `{"key":"${key}"}` }, yield* Clock.now)
      })
    )
  })

/** Whether a repeat of the request with this key would be answered with the stored response. */
const replayed = (key: string) =>
  Effect.gen(function* () {
    const store = yield* IdempotencyStore
    const claim = yield* (yield* Transactions).withTransaction(store.claim(scopeOf(key), "hash-a"))
    return claim._tag === "Replay"
  })

/** The invoices of the company's events (one each here: its creation), oldest first. */
const eventsOf = (principal: Principal) =>
  Effect.gen(function* () {
    const page = yield* (yield* Postbacks).events(principal, {
      limit: 100,
      startingAfter: null,
      type: null,
      invoice: null
    })
    return page.events.map((event) => (event.data as { secureId: string }).secureId).reverse()
  })

/** A purge by a Retention service built with these periods. */
const purgeWith = (periods: RetentionPeriods) =>
  Effect.gen(function* () {
    return yield* (yield* Retention).purge
  }).pipe(Effect.provide(Layer.fresh(Retention.layer).pipe(Layer.provide(Layer.succeed(RetentionPeriods, periods)))))

describe("Retention.purge: stored idempotent responses", () => {
  it.effect("a response is replayed for 24 h, then forgotten; one 23 h old stays", () =>
    provided(
      Effect.gen(function* () {
        const retention = yield* Retention
        yield* answered("older")
        yield* TestClock.adjust("1 hour")
        yield* answered("younger")
        yield* TestClock.adjust("23 hours")
        // "older" is exactly 24 h old: not past its retention yet.
        expect(yield* retention.purge).toEqual({ idempotencyRecords: 0, events: 0 })
        expect(yield* replayed("older")).toBe(true)
        yield* TestClock.adjust("1 millis")
        expect(yield* retention.purge).toEqual({ idempotencyRecords: 1, events: 0 })
        expect(yield* replayed("older")).toBe(false)
        // 23 h old: untouched.
        expect(yield* replayed("younger")).toBe(true)
      })
    )
  )

  it.effect("a purge goes on, batch after batch, until nothing past its retention is left", () =>
    provided(
      Effect.gen(function* () {
        // One more than a batch of 500.
        const keys = Array.from({ length: 501 }, (_, n) => `order-${n}`)
        yield* Effect.forEach(keys, answered, { discard: true })
        yield* TestClock.adjust("25 hours")
        yield* answered("recent")
        expect(yield* (yield* Retention).purge).toEqual({ idempotencyRecords: 501, events: 0 })
        expect(yield* replayed("order-0")).toBe(false)
        expect(yield* replayed("order-500")).toBe(false)
        expect(yield* replayed("recent")).toBe(true)
      })
    )
  )
})

describe("Retention.purge: events", () => {
  it.effect("an event goes after 30 days with its deliveries; one 29 days old, or awaited by a delivery, stays", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        const postbacks = yield* Postbacks
        const retention = yield* Retention
        const delivered = (yield* invoices.create(principal, pixRequest({ postbackUrl }))).invoice
        const quiet = (yield* invoices.create(principal, pixRequest())).invoice
        const retried = (yield* invoices.create(principal, pixRequest({ postbackUrl }))).invoice
        expect(yield* postbacks.deliverDue("worker-1")).toBe(2)
        yield* TestClock.adjust("2 days")
        const recent = (yield* invoices.create(principal, pixRequest({ postbackUrl }))).invoice
        expect(yield* postbacks.deliverDue("worker-1")).toBe(1)

        // Exactly 30 days old: not past their retention yet.
        yield* TestClock.adjust("28 days")
        expect(yield* retention.purge).toEqual({ idempotencyRecords: 0, events: 0 })
        expect(yield* eventsOf(principal)).toEqual([delivered, quiet, retried, recent].map((i) => i.secureId))

        yield* TestClock.adjust("1 day")
        // The merchant sends one of them again by hand: its delivery is pending until it is attempted.
        const [again] = yield* postbacks.deliveries(principal, { invoice: retried.secureId })
        yield* postbacks.retry(principal, again!.id)
        expect(yield* retention.purge).toEqual({ idempotencyRecords: 0, events: 2 })
        expect(yield* eventsOf(principal)).toEqual([retried.secureId, recent.secureId])
        expect(yield* postbacks.deliveries(principal, { invoice: delivered.secureId })).toEqual([])
        expect(yield* postbacks.deliveries(principal, { invoice: recent.secureId })).toMatchObject([
          { status: "succeeded" }
        ])
        // The invoices themselves, with their timelines, stay.
        for (const invoice of [delivered, quiet]) {
          const found = (yield* invoices.find(principal, invoice.secureId)).invoice
          expect(found.timeline.map((entry) => entry.event)).toEqual(["invoice.created"])
        }

        // Once its delivery is settled, the retried event goes at the next purge; the 29-day-old one stays.
        expect(yield* postbacks.deliverDue("worker-1")).toBe(1)
        expect(yield* retention.purge).toEqual({ idempotencyRecords: 0, events: 1 })
        expect(yield* eventsOf(principal)).toEqual([recent.secureId])
      })
    )
  )

  it.effect("a purge goes on, batch after batch, until no event past its retention is left", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        // One more than a batch of 100.
        yield* Effect.forEach(Array.from({ length: 101 }), () => invoices.create(principal, pixRequest()), {
          discard: true
        })
        yield* TestClock.adjust("31 days")
        expect(yield* (yield* Retention).purge).toEqual({ idempotencyRecords: 0, events: 101 })
        expect(yield* eventsOf(principal)).toEqual([])
      })
    )
  )

  it.effect("a delivery retried by hand while a purge runs keeps its event", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const postbacks = yield* Postbacks
        const { invoice } = yield* (yield* Invoices).create(principal, pixRequest({ postbackUrl }))
        expect(yield* postbacks.deliverDue("worker-1")).toBe(1)
        const [delivery] = yield* postbacks.deliveries(principal, { invoice: invoice.secureId })
        yield* TestClock.adjust("31 days")
        // The retry has made the delivery pending but not committed yet when the purge reaches the event.
        const repository = yield* PostbackRepository
        const retrying = yield* Deferred.make<void>()
        const commit = yield* Deferred.make<void>()
        const retry = yield* Effect.forkChild(
          (yield* Transactions).withTransaction(
            Effect.gen(function* () {
              yield* repository.retry(principal.companyId, principal.mode, delivery!.id, yield* Clock.now)
              yield* Deferred.succeed(retrying, undefined)
              yield* Deferred.await(commit)
            })
          )
        )
        yield* Deferred.await(retrying)
        const purge = yield* Effect.forkChild((yield* Retention).purge)
        // Lets the purge run up to the retry's lock on the delivery, where it waits.
        yield* Effect.yieldNow
        yield* Deferred.succeed(commit, undefined)
        yield* Fiber.join(retry)
        expect(yield* Fiber.join(purge)).toEqual({ idempotencyRecords: 0, events: 0 })
        expect(yield* eventsOf(principal)).toEqual([invoice.secureId])
        expect(yield* postbacks.deliveries(principal, { invoice: invoice.secureId })).toMatchObject([
          { status: "pending" }
        ])
      })
    )
  )
})

describe("Retention periods", () => {
  it.effect("are settings: shorter ones purge sooner, and Infinity keeps for ever", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        yield* answered("pedido-1")
        yield* (yield* Invoices).create(principal, pixRequest())
        yield* TestClock.adjust("400 days")
        const forEver = { idempotency: Duration.infinity, events: Duration.infinity }
        expect(yield* purgeWith(forEver)).toEqual({ idempotencyRecords: 0, events: 0 })
        yield* answered("pedido-2")
        yield* (yield* Invoices).create(principal, pixRequest())
        yield* TestClock.adjust("2 hours")
        // The first of each is 400 days old; the second response 2 hours, past 1 hour; the second event 2 hours, not
        // past 2 hours.
        const short = { idempotency: Duration.hours(1), events: Duration.hours(2) }
        expect(yield* purgeWith(short)).toEqual({ idempotencyRecords: 2, events: 1 })
      })
    )
  )
})

describe("Retention.run", () => {
  it.effect("the worker's loop purges every interval as the clock moves", () =>
    provided(
      Effect.gen(function* () {
        const worker = yield* Effect.forkChild((yield* Retention).run("1 hour"))
        yield* answered("pedido-1")
        yield* TestClock.adjust("24 hours")
        expect(yield* replayed("pedido-1")).toBe(true)
        yield* TestClock.adjust("1 hour")
        expect(yield* replayed("pedido-1")).toBe(false)
        yield* Fiber.interrupt(worker)
      })
    )
  )
})
