// The PostbackRepository contract, as the postback worker and the events API rely on it (the outbox that queues a
// delivery with its event is EventOutbox's, in contracts/EventOutboxContract.ts): due deliveries are claimed
// by one worker until its lease ends, with the exact body and every secret that still signs; an attempt settles its
// delivery only if its worker still holds the lease; retry makes a delivery due again; events list newest first by
// the order they were recorded.
import { expect } from "@effect/vitest"
import { PostbackRepository } from "@fatura/application"
import { Timestamp } from "@fatura/domain"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { attempted, claim, deliveryOf } from "./support/Deliveries.js"
import { aCompany, anEvent, anInvoice, at, freshEra, postbackUrl as url } from "./support/Fixtures.js"
import { onEachDatabase } from "./support/TestDatabases.js"

/** A company with a pending invoice, for events to be about. */
const anInvoiceOfItsOwn = Effect.gen(function* () {
  const company = yield* aCompany()
  return { company, invoice: yield* anInvoice(company) }
})

onEachDatabase("PostbackRepository", (it) => {
  it.effect("lists a company's events of one mode newest first, in the order they were recorded", () =>
    Effect.gen(function* () {
      const postbacks = yield* PostbackRepository
      const { company, invoice } = yield* anInvoiceOfItsOwn
      const second = yield* anInvoice(company)
      const other = yield* anInvoiceOfItsOwn
      // The events of one change share their instant: only the order they were recorded in tells them apart.
      const created = yield* anEvent(invoice, { type: "invoice.created", createdAt: at(0) })
      const paid = yield* anEvent(invoice, { type: "invoice.paid", createdAt: at(0) })
      const secondCreated = yield* anEvent(second, { type: "invoice.created", createdAt: at(0) })
      const refunded = yield* anEvent(invoice, { type: "invoice.refunded", createdAt: at(60) })
      const live = yield* anEvent(invoice, { livemode: true })
      const othersEvent = yield* anEvent(other.invoice)
      const filter = {
        companyId: company.id,
        livemode: false,
        before: null,
        type: null,
        invoiceId: null,
        limit: 10
      }
      const ids = (events: ReadonlyArray<{ readonly id: string }>) => events.map((event) => event.id)

      const listed = yield* postbacks.listEvents(filter)
      expect(ids(listed)).toEqual([refunded, secondCreated, paid, created])
      expect(listed[0]).toEqual({
        id: refunded,
        type: "invoice.refunded",
        createdAt: at(60),
        livemode: false,
        data: { invoice: { id: invoice.secureId, amount: invoice.amount } },
        reason: null
      })
      expect(ids(yield* postbacks.listEvents({ ...filter, limit: 2 }))).toEqual([refunded, secondCreated, paid])

      const position = Option.getOrThrow(yield* postbacks.eventPosition(company.id, false, secondCreated))
      expect(ids(yield* postbacks.listEvents({ ...filter, before: position }))).toEqual([paid, created])
      expect(ids(yield* postbacks.listEvents({ ...filter, type: "invoice.created" }))).toEqual([secondCreated, created])
      expect(ids(yield* postbacks.listEvents({ ...filter, invoiceId: second.id }))).toEqual([secondCreated])
      expect(ids(yield* postbacks.listEvents({ ...filter, livemode: true }))).toEqual([live])

      // Another company's event, or one of the other mode, has no position for this company.
      expect(Option.isNone(yield* postbacks.eventPosition(company.id, false, othersEvent))).toBe(true)
      expect(Option.isNone(yield* postbacks.eventPosition(company.id, true, created))).toBe(true)
      expect(Option.isNone(yield* postbacks.eventPosition(company.id, false, "evt_unknown"))).toBe(true)
    })
  )

  it.effect("claims due deliveries for one worker until its lease ends, oldest first, with the event as the body", () =>
    Effect.gen(function* () {
      const era = yield* freshEra
      const after = (seconds: number) => Timestamp.plusSeconds(era, seconds)
      const { company, invoice } = yield* anInvoiceOfItsOwn
      const first = yield* anEvent(invoice, { type: "invoice.created", createdAt: after(10) })
      const second = yield* anEvent(invoice, { type: "invoice.paid", createdAt: after(20) })
      yield* anEvent(invoice, { createdAt: after(3_600) })

      const [claimed, ...rest] = yield* claim("worker-1", after(60), 30, 1)
      expect(rest).toEqual([])
      expect(claimed).toEqual({
        id: (yield* deliveryOf(company, first)).id,
        attempt: 1,
        url,
        livemode: false,
        eventId: first,
        eventType: "invoice.created",
        body: claimed!.body,
        secrets: []
      })
      expect(JSON.parse(claimed!.body)).toEqual({
        id: first,
        type: "invoice.created",
        created_at: after(10),
        livemode: false,
        data: { invoice: { id: invoice.secureId, amount: invoice.amount } }
      })
      expect(yield* deliveryOf(company, first)).toMatchObject({ status: "pending", attempts: 1 })

      // The first is leased until 90: another worker takes the second (until 121), and nothing not yet due.
      expect((yield* claim("worker-2", after(61), 60)).map((delivery) => delivery.eventId)).toEqual([second])
      expect(yield* claim("worker-3", after(89), 30)).toEqual([])
      // Its lease lapsed with no result: the next worker takes it up again, as its second attempt.
      const retaken = yield* claim("worker-3", after(95), 30)
      expect(retaken.map((delivery) => [delivery.eventId, delivery.attempt, delivery.body])).toEqual([
        [first, 2, claimed!.body]
      ])
    })
  )

  it.effect("signs with every secret of the event's mode that still signs, newest first", () =>
    Effect.gen(function* () {
      const postbacks = yield* PostbackRepository
      const era = yield* freshEra
      const after = (seconds: number) => Timestamp.plusSeconds(era, seconds)
      const { company, invoice } = yield* anInvoiceOfItsOwn
      expect(yield* postbacks.createWebhookSecret(company.id, "test", "whsec_1", era)).toBe(true)
      expect(yield* postbacks.createWebhookSecret(company.id, "test", "whsec_other", era)).toBe(false)
      expect(yield* postbacks.createWebhookSecret(company.id, "live", "whsec_live", era)).toBe(true)
      const overlap = (until: number) => ({ until: after(until), rolledAtMost: 2 })
      yield* postbacks.rollWebhookSecret(company.id, "test", "whsec_2", after(10), overlap(100))
      yield* postbacks.rollWebhookSecret(company.id, "test", "whsec_3", after(20), overlap(200))
      yield* anEvent(invoice, { createdAt: after(30) })
      yield* anEvent(invoice, { createdAt: after(30), livemode: true })

      // A lease that ends at once lets each claim below take the deliveries again; test mode's comes first.
      const secretsAt = (seconds: number) =>
        claim("worker", after(seconds), 0).pipe(
          Effect.map((claimed) =>
            claimed
              .map((delivery) => [delivery.livemode, delivery.secrets] as const)
              .sort((a, b) => Number(a[0]) - Number(b[0]))
          )
        )
      expect(yield* secretsAt(50)).toEqual([
        [false, ["whsec_3", "whsec_2", "whsec_1"]],
        [true, ["whsec_live"]]
      ])
      expect((yield* secretsAt(150))[0]).toEqual([false, ["whsec_3", "whsec_2"]])
      expect((yield* secretsAt(250))[0]).toEqual([false, ["whsec_3"]])
      // A roll once the replaced secrets stopped signing leaves the new one and the one it replaces.
      yield* postbacks.rollWebhookSecret(company.id, "test", "whsec_4", after(300), overlap(400))
      expect((yield* secretsAt(350))[0]).toEqual([false, ["whsec_4", "whsec_3"]])
      // Past `rolledAtMost` rolled secrets, the oldest stop signing at the roll, long before their overlap ends.
      yield* postbacks.rollWebhookSecret(company.id, "test", "whsec_5", after(360), overlap(460))
      yield* postbacks.rollWebhookSecret(company.id, "test", "whsec_6", after(370), overlap(470))
      expect((yield* secretsAt(380))[0]).toEqual([false, ["whsec_6", "whsec_5", "whsec_4"]])
      yield* postbacks.rollWebhookSecret(company.id, "test", "whsec_7", after(390), {
        until: after(490),
        rolledAtMost: 0
      })
      expect((yield* secretsAt(395))[0]).toEqual([false, ["whsec_7"]])
    })
  )

  it.effect("settles a delivery by its attempt: delivered, due again later, or failed for good", () =>
    Effect.gen(function* () {
      const postbacks = yield* PostbackRepository
      const sql = yield* SqlClient.SqlClient
      const era = yield* freshEra
      const after = (seconds: number) => Timestamp.plusSeconds(era, seconds)
      const { company, invoice } = yield* anInvoiceOfItsOwn
      const delivered = yield* anEvent(invoice, { createdAt: after(1) })
      const retried = yield* anEvent(invoice, { createdAt: after(2) })
      const failed = yield* anEvent(invoice, { createdAt: after(3) })
      const claimed = yield* claim("worker", after(10), 30)
      const of = (eventId: string) => claimed.find((delivery) => delivery.eventId === eventId)!

      yield* postbacks.recordAttempt(attempted(of(delivered), "worker", after(11), { _tag: "Succeeded" }, 204))
      yield* postbacks.recordAttempt(
        attempted(of(retried), "worker", after(12), { _tag: "Retry", nextAttemptAt: after(300) }, 500)
      )
      yield* postbacks.recordAttempt(attempted(of(failed), "worker", after(13), { _tag: "Failed" }, 410))

      expect(yield* deliveryOf(company, delivered)).toMatchObject({
        status: "succeeded",
        attempts: 1,
        lastStatusCode: 204,
        lastError: null,
        nextAttemptAt: null,
        updatedAt: after(11)
      })
      expect(yield* deliveryOf(company, retried)).toMatchObject({
        status: "pending",
        attempts: 1,
        lastStatusCode: 500,
        lastError: "answered 500",
        nextAttemptAt: after(300)
      })
      expect(yield* deliveryOf(company, failed)).toMatchObject({
        status: "failed",
        lastStatusCode: 410,
        nextAttemptAt: null
      })
      const attempts = yield* sql`
        SELECT a.attempt, a.worker, a.status_code, a.succeeded FROM delivery_attempts a
        JOIN deliveries d ON d.id = a.delivery_id WHERE d.event_id = ${delivered}`
      expect(attempts).toEqual([{ attempt: 1, worker: "worker", status_code: 204, succeeded: true }])

      expect(yield* claim("worker", after(299), 30)).toEqual([])
      expect((yield* claim("worker", after(300), 30)).map((delivery) => [delivery.eventId, delivery.attempt])).toEqual([
        [retried, 2]
      ])
    })
  )

  it.effect("keeps a late result of a lost lease out of the delivery, and in its attempts", () =>
    Effect.gen(function* () {
      const postbacks = yield* PostbackRepository
      const sql = yield* SqlClient.SqlClient
      const era = yield* freshEra
      const after = (seconds: number) => Timestamp.plusSeconds(era, seconds)
      const { company, invoice } = yield* anInvoiceOfItsOwn
      const eventId = yield* anEvent(invoice, { createdAt: after(1) })
      // Each lease lapses before its attempt ends, and the delivery is taken up again: by another worker, then by
      // the first one once more.
      const [first] = yield* claim("slow", after(10), 30)
      const [second] = yield* claim("fast", after(50), 30)
      const [third] = yield* claim("slow", after(90), 30)
      expect([first!.attempt, second!.attempt, third!.attempt]).toEqual([1, 2, 3])

      yield* postbacks.recordAttempt(attempted(second!, "fast", after(95), { _tag: "Succeeded" }, 200))
      yield* postbacks.recordAttempt(attempted(first!, "slow", after(96), { _tag: "Succeeded" }, 201))
      expect(yield* deliveryOf(company, eventId)).toMatchObject({
        status: "pending",
        attempts: 3,
        lastStatusCode: null
      })
      yield* postbacks.recordAttempt(attempted(third!, "slow", after(100), { _tag: "Failed" }, 500))
      expect(yield* deliveryOf(company, eventId)).toMatchObject({ status: "failed", attempts: 3, lastStatusCode: 500 })
      const attempts = yield* sql`
        SELECT a.attempt, a.worker FROM delivery_attempts a
        JOIN deliveries d ON d.id = a.delivery_id WHERE d.event_id = ${eventId} ORDER BY a.id`
      expect(attempts).toEqual([
        { attempt: 2, worker: "fast" },
        { attempt: 1, worker: "slow" },
        { attempt: 3, worker: "slow" }
      ])
    })
  )

  it.effect("makes a company's delivery due again on request, a failed one too; not another company's or mode's", () =>
    Effect.gen(function* () {
      const postbacks = yield* PostbackRepository
      const era = yield* freshEra
      const after = (seconds: number) => Timestamp.plusSeconds(era, seconds)
      const { company, invoice } = yield* anInvoiceOfItsOwn
      const other = yield* aCompany()
      const eventId = yield* anEvent(invoice, { createdAt: after(1) })
      const [claimed] = yield* claim("worker", after(10), 30)
      yield* postbacks.recordAttempt(attempted(claimed!, "worker", after(11), { _tag: "Failed" }, 500))
      const delivery = yield* deliveryOf(company, eventId)

      expect(yield* postbacks.retry(other.id, "test", delivery.id, after(20))).toBe(false)
      expect(yield* postbacks.retry(company.id, "test", delivery.id + 1_000_000, after(20))).toBe(false)
      expect(yield* postbacks.retry(company.id, "live", delivery.id, after(20))).toBe(false)
      expect((yield* deliveryOf(company, eventId)).status).toBe("failed")
      expect(yield* postbacks.retry(company.id, "test", delivery.id, after(20))).toBe(true)
      expect(yield* deliveryOf(company, eventId)).toMatchObject({ status: "pending", nextAttemptAt: after(20) })
      expect((yield* claim("worker", after(20), 30)).map((due) => [due.eventId, due.attempt])).toEqual([[eventId, 2]])
    })
  )

  it.effect("never hands one delivery to two workers claiming at once", () =>
    Effect.gen(function* () {
      const era = yield* freshEra
      const { invoice } = yield* anInvoiceOfItsOwn
      const events: Array<string> = []
      for (let n = 0; n < 6; n++) events.push(yield* anEvent(invoice, { createdAt: Timestamp.plusSeconds(era, n) }))

      const now = Timestamp.plusSeconds(era, 60)
      const claims = yield* Effect.all(
        ["a", "b", "c", "d"].map((worker) => claim(worker, now, 30, 2)),
        { concurrency: "unbounded" }
      )
      const claimed = claims.flat().map((delivery) => delivery.eventId)
      expect([...claimed].sort()).toEqual([...events].sort())
    })
  )
})
