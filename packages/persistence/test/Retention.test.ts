// The purges of what is past its retention, as the Retention use case relies on them: `IdempotencyStore.purge` and
// `PostbackRepository.purgeEvents` remove what was recorded before the cutoff, oldest first, no more than a batch
// at a time; an event goes with its deliveries and their attempts, but never while one of its deliveries is pending;
// what is younger than the cutoff is untouched. Purges at once share the rows out instead of waiting for each other.
import { randomUUID } from "node:crypto"
import { expect } from "@effect/vitest"
import {
  type Attempt,
  type ClaimedDelivery,
  EventOutbox,
  type IdempotencyScope,
  IdempotencyStore,
  InvoiceRepository,
  PostbackRepository,
  Transactions
} from "@fatura/application"
import { type Invoice, Timestamp } from "@fatura/domain"
import { Deferred, Effect, Fiber, Option } from "effect"
import { SqlClient } from "effect/sql"
import { aCompany, anInvoice } from "./support/Fixtures.js"
import { onEachDatabase } from "./support/TestDatabases.js"

const url = "https://loja.example/postbacks"

let erasTaken = 0

/**
 * The instant a case takes as now: each case a year before the one that ran before it, so that what a case keeps (a
 * pending event, rows within retention; none older than 50 days) is never past the cutoff of a later one.
 */
const anEra = Effect.sync(() => {
  erasTaken += 1
  return Timestamp.plusSeconds("2015-01-01T00:00:00.000000Z" as Timestamp.Timestamp, -erasTaken * 365 * 86_400)
})

const hoursBefore = (instant: Timestamp.Timestamp, hours: number) => Timestamp.plusSeconds(instant, -hours * 3_600)

const daysBefore = (instant: Timestamp.Timestamp, days: number) => hoursBefore(instant, days * 24)

/** Stores the response to a request with `key` of `principal`, at `at`, as a request's transaction does. */
const storedResponse = (principal: string, key: string, at: Timestamp.Timestamp) =>
  Effect.gen(function* () {
    const store = yield* IdempotencyStore
    const scope: IdempotencyScope = { principal, companyId: null, endpoint: "POST /api/v2/invoices", key }
    yield* (yield* Transactions).withTransaction(
      Effect.gen(function* () {
        yield* store.claim(scope, "hash-a")
        yield* store.complete(scope, "hash-a", { status: 201, body: `{"key":"${key}"}` }, at)
      })
    )
  })

/** The keys of the responses stored for `principal`, in order. */
const storedKeys = (principal: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql`SELECT key FROM idempotency_keys WHERE principal = ${principal} ORDER BY key`
    return rows.map((row) => String(row.key))
  })

const purgeResponses = (recordedBefore: Timestamp.Timestamp, limit: number) =>
  Effect.gen(function* () {
    const store = yield* IdempotencyStore
    return yield* (yield* Transactions).withTransaction(store.purge(recordedBefore, limit))
  })

const purgeEvents = (recordedBefore: Timestamp.Timestamp, limit: number) =>
  Effect.gen(function* () {
    const postbacks = yield* PostbackRepository
    return yield* (yield* Transactions).withTransaction(postbacks.purgeEvents(recordedBefore, limit))
  })

/** Records an event of `invoice` at `createdAt`, with a delivery to `url` unless `postbackUrl` is null. */
const anEvent = (invoice: Invoice.Invoice, createdAt: Timestamp.Timestamp, postbackUrl: string | null = url) =>
  Effect.gen(function* () {
    const id = `evt_${randomUUID()}`
    yield* (yield* EventOutbox).recordEvent({
      id,
      postbackUrl,
      companyId: invoice.companyId,
      invoiceId: invoice.id,
      type: "invoice.created",
      livemode: false,
      data: { invoice: { id: invoice.secureId } },
      createdAt
    })
    return id
  })

/**
 * Claims what is due at `now` for one worker and records each attempt with the outcome `outcomeOf` gives it; the
 * events it attempted, sorted.
 */
const attemptDue = (now: Timestamp.Timestamp, outcomeOf: (delivery: ClaimedDelivery) => Attempt["outcome"]) =>
  Effect.gen(function* () {
    const postbacks = yield* PostbackRepository
    const claimed = yield* postbacks.claimDue({
      now,
      leaseUntil: Timestamp.plusSeconds(now, 60),
      worker: "worker-1",
      limit: 10
    })
    for (const delivery of claimed) {
      const outcome = outcomeOf(delivery)
      yield* postbacks.recordAttempt({
        deliveryId: delivery.id,
        attempt: delivery.attempt,
        worker: "worker-1",
        startedAt: now,
        finishedAt: now,
        statusCode: outcome._tag === "Succeeded" ? 200 : 500,
        error: outcome._tag === "Succeeded" ? null : "answered 500",
        durationMs: 5,
        outcome
      })
    }
    return claimed.map((delivery) => delivery.eventId).sort()
  })

/** What is left of the invoice's events: each with its deliveries' statuses and how many attempts they recorded. */
const leftOf = (invoice: Invoice.Invoice) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql`
      SELECT e.id, d.status,
             (SELECT count(*)::int FROM delivery_attempts a WHERE a.delivery_id = d.id) AS attempts
      FROM events e LEFT JOIN deliveries d ON d.event_id = e.id
      WHERE e.invoice_id = ${invoice.id}
      ORDER BY e.created_at`
    return rows.map((row) => [String(row.id), row.status, row.attempts])
  })

onEachDatabase("Retention purges", (it, database) => {
  it.effect("forget stored responses recorded before the cutoff, oldest first, a batch at a time", () =>
    Effect.gen(function* () {
      const now = yield* anEra
      const principal = `checkout ${randomUUID()}`
      for (const [key, hours] of [
        ["a-48h", 48],
        ["b-30h", 30],
        ["c-25h", 25],
        ["d-24h", 24],
        ["e-23h", 23],
        ["f-1h", 1]
      ] as const) {
        yield* storedResponse(principal, key, hoursBefore(now, hours))
      }
      const cutoff = hoursBefore(now, 24)

      expect(yield* purgeResponses(cutoff, 2)).toBe(2)
      expect(yield* storedKeys(principal)).toEqual(["c-25h", "d-24h", "e-23h", "f-1h"])
      expect(yield* purgeResponses(cutoff, 2)).toBe(1)
      expect(yield* purgeResponses(cutoff, 2)).toBe(0)
      // Recorded at the cutoff or after it: untouched, and still replayed.
      expect(yield* storedKeys(principal)).toEqual(["d-24h", "e-23h", "f-1h"])
      const store = yield* IdempotencyStore
      const replay = yield* (yield* Transactions).withTransaction(
        store.claim({ principal, companyId: null, endpoint: "POST /api/v2/invoices", key: "e-23h" }, "hash-a")
      )
      expect(replay).toEqual({ _tag: "Replay", response: { status: 201, body: '{"key":"e-23h"}' } })
    })
  )

  it.effect("remove events recorded before the cutoff with their deliveries and attempts, never a pending one", () =>
    Effect.gen(function* () {
      const now = yield* anEra
      const invoice = yield* anInvoice(yield* aCompany())
      const delivered = yield* anEvent(invoice, daysBefore(now, 40))
      const retrying = yield* anEvent(invoice, daysBefore(now, 38))
      const failed = yield* anEvent(invoice, daysBefore(now, 35))
      const quiet = yield* anEvent(invoice, daysBefore(now, 33), null)
      const atCutoff = yield* anEvent(invoice, daysBefore(now, 30))
      const recent = yield* anEvent(invoice, daysBefore(now, 29))
      expect(yield* attemptDue(daysBefore(now, 39), () => ({ _tag: "Succeeded" }))).toEqual([delivered])
      // Being retried: its next attempt is due after the purge.
      expect(
        yield* attemptDue(daysBefore(now, 34), (delivery) =>
          delivery.eventId === retrying
            ? { _tag: "Retry", nextAttemptAt: Timestamp.plusSeconds(now, 60) }
            : { _tag: "Failed" }
        )
      ).toEqual([retrying, failed].sort())
      expect(yield* attemptDue(daysBefore(now, 28), () => ({ _tag: "Succeeded" }))).toEqual([atCutoff, recent].sort())
      const cutoff = daysBefore(now, 30)

      expect(yield* purgeEvents(cutoff, 2)).toBe(2)
      expect((yield* leftOf(invoice)).map(([id]) => id)).toEqual([retrying, quiet, atCutoff, recent])
      expect(yield* purgeEvents(cutoff, 2)).toBe(1)
      expect(yield* purgeEvents(cutoff, 2)).toBe(0)
      expect(yield* leftOf(invoice)).toEqual([
        [retrying, "pending", 1],
        [atCutoff, "succeeded", 1],
        [recent, "succeeded", 1]
      ])
      // Nothing is left of the deliveries of the events that went, attempts included.
      const sql = yield* SqlClient.SqlClient
      const orphans = yield* sql`
        SELECT count(*)::int AS n FROM delivery_attempts a
        WHERE NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.id = a.delivery_id)`
      expect(orphans).toEqual([{ n: 0 }])
      // The invoice itself stays.
      expect(Option.isSome(yield* (yield* InvoiceRepository).findById(invoice.id))).toBe(true)
    })
  )

  if (database.concurrent) {
    it.effect("share the rows out when two run at once: each skips what the other holds, neither waits", () =>
      Effect.gen(function* () {
        const now = yield* anEra
        const transactions = yield* Transactions
        const store = yield* IdempotencyStore
        const postbacks = yield* PostbackRepository
        const principal = `checkout ${randomUUID()}`
        const invoice = yield* anInvoice(yield* aCompany())
        for (const days of [50, 49, 48]) {
          yield* storedResponse(principal, `key-${days}`, daysBefore(now, days))
          yield* anEvent(invoice, daysBefore(now, days), null)
        }
        const cutoff = daysBefore(now, 30)
        const held = yield* Deferred.make<readonly [number, number]>()
        const release = yield* Deferred.make<void>()
        const first = yield* Effect.forkChild(
          transactions.withTransaction(
            Effect.gen(function* () {
              const removed = [yield* store.purge(cutoff, 1), yield* postbacks.purgeEvents(cutoff, 1)] as const
              yield* Deferred.succeed(held, removed)
              yield* Deferred.await(release)
            })
          )
        )
        expect(yield* Deferred.await(held)).toEqual([1, 1])

        const second = yield* Effect.all([purgeResponses(cutoff, 10), purgeEvents(cutoff, 10)]).pipe(
          Effect.timeout("5 seconds")
        )
        expect(second).toEqual([2, 2])
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(first)
        expect(yield* storedKeys(principal)).toEqual([])
        expect(yield* leftOf(invoice)).toEqual([])
      })
    )

    it.effect("keep an event whose delivery a retry by hand made pending while the purge waited for it", () =>
      Effect.gen(function* () {
        const now = yield* anEra
        const transactions = yield* Transactions
        const postbacks = yield* PostbackRepository
        const company = yield* aCompany()
        const invoice = yield* anInvoice(company)
        const event = yield* anEvent(invoice, daysBefore(now, 40))
        expect(yield* attemptDue(daysBefore(now, 39), () => ({ _tag: "Succeeded" }))).toEqual([event])
        const [delivery] = yield* postbacks.listDeliveries(company.id, { eventId: event })
        const retried = yield* Deferred.make<boolean>()
        const commit = yield* Deferred.make<void>()
        const retry = yield* Effect.forkChild(
          transactions.withTransaction(
            Effect.gen(function* () {
              yield* Deferred.succeed(retried, yield* postbacks.retry(company.id, "test", delivery!.id, now))
              yield* Deferred.await(commit)
            })
          )
        )
        expect(yield* Deferred.await(retried)).toBe(true)

        // The purge saw the delivery settled, took the event, and waits for the retry's lock on the delivery.
        const purge = yield* Effect.forkChild(purgeEvents(daysBefore(now, 30), 10))
        expect(Option.isNone(yield* Fiber.join(purge).pipe(Effect.timeoutOption("300 millis")))).toBe(true)
        yield* Deferred.succeed(commit, undefined)
        yield* Fiber.join(retry)
        expect(yield* Fiber.join(purge)).toBe(0)
        expect(yield* leftOf(invoice)).toEqual([[event, "pending", 1]])
      })
    )
  }
})
