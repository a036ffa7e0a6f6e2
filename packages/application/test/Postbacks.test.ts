// Events and postbacks (SPEC 4.8, 8): every move of an invoice records one event with the invoice as of the move;
// an invoice with a postback URL queues a delivery per event, sent signed with the mode's secrets and tried again
// on the schedule when the receiver fails.
import { describe, expect, it } from "@effect/vitest"
import { Timestamp } from "@fatura/domain"
import { Deferred, Effect, Fiber, Layer } from "effect"
import { TestClock } from "effect/testing"
import { Invoices } from "../src/invoices/Invoices.js"
import { InvoiceLifecycle } from "../src/moves/InvoiceLifecycle.js"
import * as Clock from "../src/platform/Clock.js"
import { Transactions } from "../src/platform/Transactions.js"
import { PostbackRepository } from "../src/postbacks/PostbackRepository.js"
import { Postbacks } from "../src/postbacks/Postbacks.js"
import * as TestApplication from "../src/testing/TestApplication.js"
import * as TestPostbackSender from "../src/testing/TestPostbackSender.js"
import {
  cardRequest,
  liveMode,
  pixRequest,
  provided,
  registerMerchant,
  startClock,
  timestamp
} from "./support/Merchant.js"

const allEvents = { limit: 100, startingAfter: null, type: null, invoice: null }

const postbackUrl = "https://loja.example.com/fatura"

describe("Postbacks.events", () => {
  it.effect("each move records one event, newest first, showing the invoice as the move left it", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const lifecycle = yield* InvoiceLifecycle
        const { invoice } = yield* (yield* Invoices).create(principal, pixRequest())
        yield* TestClock.adjust("1 minute")
        yield* lifecycle.pay(principal, invoice.secureId)
        yield* TestClock.adjust("1 minute")
        yield* lifecycle.refund(principal, invoice.secureId, 1_000, null)
        const { events, hasMore } = yield* (yield* Postbacks).events(principal, allEvents)
        expect(hasMore).toBe(false)
        expect(
          events.map((event) => {
            const data = event.data as { status: string; refundedAmount: number; enterprise: { balance_pix: number } }
            return [
              event.type,
              event.createdAt,
              event.livemode,
              data.status,
              data.refundedAmount,
              data.enterprise.balance_pix
            ]
          })
        ).toEqual([
          [
            "invoice.partially_refunded",
            timestamp("2026-03-10T15:02:00.000Z"),
            false,
            "partially_refunded",
            1_000,
            8_801
          ],
          ["invoice.paid", timestamp("2026-03-10T15:01:00.000Z"), false, "paid", 0, 9_801],
          ["invoice.created", timestamp("2026-03-10T15:00:00.000Z"), false, "pending", 0, 0]
        ])
      })
    )
  )

  it.effect("pages through the company's events of the caller's mode, by type and by invoice", () =>
    provided(
      Effect.gen(function* () {
        const merchant = yield* registerMerchant()
        const other = yield* registerMerchant()
        const invoices = yield* Invoices
        const postbacks = yield* Postbacks
        const pix = (yield* invoices.create(merchant.principal, pixRequest())).invoice
        const card = (yield* invoices.create(merchant.principal, cardRequest())).invoice
        yield* invoices.create(other.principal, pixRequest())
        const all = (yield* postbacks.events(merchant.principal, allEvents)).events
        expect(all.map((event) => event.type)).toEqual(["invoice.paid", "invoice.created", "invoice.created"])
        const page = yield* postbacks.events(merchant.principal, { ...allEvents, limit: 2 })
        expect(page.hasMore).toBe(true)
        const rest = yield* postbacks.events(merchant.principal, { ...allEvents, startingAfter: page.events[1]!.id })
        expect(rest.events.map((event) => event.id)).toEqual([all[2]!.id])
        const created = yield* postbacks.events(merchant.principal, { ...allEvents, type: "invoice.created" })
        expect(created.events).toHaveLength(2)
        const ofPix = yield* postbacks.events(merchant.principal, { ...allEvents, invoice: pix.secureId })
        expect(ofPix.events.map((event) => event.type)).toEqual(["invoice.created"])
        const ofCard = yield* postbacks.events(merchant.principal, { ...allEvents, invoice: String(card.id) })
        expect(ofCard.events).toHaveLength(2)
        const foreign = (yield* postbacks.events(other.principal, allEvents)).events[0]!
        expect(
          yield* Effect.flip(postbacks.events(merchant.principal, { ...allEvents, startingAfter: foreign.id }))
        ).toMatchObject({ _tag: "UnknownCursor" })
        expect(yield* postbacks.events(yield* liveMode(merchant.principal), allEvents)).toEqual({
          events: [],
          hasMore: false
        })
      })
    )
  )
})

describe("Postbacks.deliverDue", () => {
  it.effect("sends each event of an invoice with a postback URL once, signed with the mode's secret", () =>
    provided(
      Effect.gen(function* () {
        const { principal, webhookSecret } = yield* registerMerchant()
        const invoices = yield* Invoices
        const postbacks = yield* Postbacks
        const { invoice } = yield* invoices.create(principal, pixRequest({ postbackUrl }))
        yield* (yield* InvoiceLifecycle).pay(principal, invoice.secureId)
        yield* invoices.create(principal, pixRequest())
        expect(yield* postbacks.deliverDue("worker-1")).toBe(2)
        expect(yield* postbacks.deliverDue("worker-1")).toBe(0)
        const sent = yield* (yield* TestPostbackSender.SentPostbacks).all
        expect(sent.map((request) => [request.url, request.eventType, request.secrets])).toEqual([
          [postbackUrl, "invoice.created", [webhookSecret]],
          [postbackUrl, "invoice.paid", [webhookSecret]]
        ])
        const body = JSON.parse(sent[1]!.body)
        expect(body).toMatchObject({ id: sent[1]!.eventId, type: "invoice.paid", livemode: false })
        expect(body.data).toMatchObject({ secureId: invoice.secureId, status: "paid" })
        const deliveries = yield* postbacks.deliveries(principal, { invoice: invoice.secureId })
        expect(deliveries.map((delivery) => [delivery.status, delivery.attempts, delivery.lastStatusCode])).toEqual([
          ["succeeded", 1, 200],
          ["succeeded", 1, 200]
        ])
      })
    )
  )

  it.effect("a failed attempt is tried again about a minute later; a manual retry makes it due at once", () =>
    Effect.gen(function* () {
      yield* startClock
      const { principal } = yield* registerMerchant()
      const postbacks = yield* Postbacks
      const { invoice } = yield* (yield* Invoices).create(principal, pixRequest({ postbackUrl }))
      expect(yield* postbacks.deliverDue("worker-1")).toBe(1)
      const [failed] = yield* postbacks.deliveries(principal, { invoice: invoice.secureId })
      expect(failed).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500, lastError: "answered 500" })
      const delay = (Date.parse(failed!.nextAttemptAt!) - Date.parse(failed!.updatedAt)) / 1000
      expect(delay).toBeGreaterThanOrEqual(54)
      expect(delay).toBeLessThanOrEqual(66)
      expect(yield* postbacks.deliverDue("worker-1")).toBe(0)
      yield* TestClock.adjust("66 seconds")
      expect(yield* postbacks.deliverDue("worker-1")).toBe(1)
      yield* postbacks.retry(principal, failed!.id)
      expect(yield* postbacks.deliverDue("worker-1")).toBe(1)
      const [again] = yield* postbacks.deliveries(principal, { invoice: invoice.secureId })
      expect(again).toMatchObject({ status: "pending", attempts: 3 })
      expect(yield* Effect.flip(postbacks.retry(principal, failed!.id + 1))).toMatchObject({
        _tag: "DeliveryNotFound"
      })
      expect(yield* Effect.flip(postbacks.retry({ ...principal, mode: "live" }, failed!.id))).toMatchObject({
        _tag: "DeliveryNotFound"
      })
    }).pipe(
      Effect.provide(
        TestApplication.withProviders(
          Layer.mergeAll(
            TestApplication.providers,
            TestPostbackSender.answering(() => 500)
          )
        )
      )
    )
  )

  it.effect("a delivery is one worker's at a time: skipped while claimed, held by its lease, then taken over", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        yield* (yield* Invoices).create(principal, pixRequest({ postbackUrl }))
        const repository = yield* PostbackRepository
        const claim = (worker: string) =>
          Effect.gen(function* () {
            const now = yield* Clock.now
            return yield* repository.claimDue({ now, leaseUntil: Timestamp.plusSeconds(now, 60), worker, limit: 10 })
          })
        const claimed = yield* Deferred.make<void>()
        const commit = yield* Deferred.make<void>()
        const first = yield* Effect.forkChild(
          (yield* Transactions).withTransaction(
            Effect.gen(function* () {
              const taken = yield* claim("worker-1")
              yield* Deferred.succeed(claimed, undefined)
              yield* Deferred.await(commit)
              return taken
            })
          )
        )
        yield* Deferred.await(claimed)
        expect(yield* claim("worker-2")).toEqual([])
        yield* Deferred.succeed(commit, undefined)
        expect((yield* Fiber.join(first)).map((delivery) => delivery.attempt)).toEqual([1])
        expect(yield* claim("worker-2")).toEqual([])
        // worker-1 never reports back: once its lease has lapsed, the delivery is another's.
        yield* TestClock.adjust("61 seconds")
        expect((yield* claim("worker-2")).map((delivery) => delivery.attempt)).toEqual([2])
      })
    )
  )

  it.effect("after a roll, the old secret signs beside the new one for 24 hours, then only the new one does", () =>
    provided(
      Effect.gen(function* () {
        const { principal, webhookSecret } = yield* registerMerchant()
        const invoices = yield* Invoices
        const postbacks = yield* Postbacks
        const sent = yield* TestPostbackSender.SentPostbacks
        const rolled = yield* postbacks.rollSecret(principal)
        yield* invoices.create(principal, pixRequest({ postbackUrl }))
        yield* postbacks.deliverDue("worker-1")
        yield* TestClock.adjust("24 hours")
        yield* invoices.create(principal, pixRequest({ postbackUrl }))
        yield* postbacks.deliverDue("worker-1")
        expect((yield* sent.all).map((request) => request.secrets)).toEqual([[rolled, webhookSecret], [rolled]])
      })
    )
  )

  it.effect("signs with three secrets at most, however many rolls, and rolled before the cap", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        const postbacks = yield* Postbacks
        const repository = yield* PostbackRepository
        const sent = yield* TestPostbackSender.SentPostbacks
        const rolled: Array<string> = []
        for (let count = 0; count < 10; count++) rolled.push(yield* postbacks.rollSecret(principal))
        yield* invoices.create(principal, pixRequest({ postbackUrl }))
        yield* postbacks.deliverDue("worker-1")
        // Secrets rolled before there was a cap (the store kept them all) sign no more than three either.
        const now = yield* Clock.now
        for (const secret of ["whsec_a", "whsec_b", "whsec_c", "whsec_d"]) {
          yield* repository.rollWebhookSecret(principal.companyId, principal.mode, secret, now, {
            until: Timestamp.plusSeconds(now, 3_600),
            rolledAtMost: 10
          })
        }
        yield* invoices.create(principal, pixRequest({ postbackUrl }))
        yield* postbacks.deliverDue("worker-1")
        expect((yield* sent.all).map((request) => request.secrets)).toEqual([
          rolled.slice(-3).reverse(),
          ["whsec_d", "whsec_c", "whsec_b"]
        ])
      })
    )
  )
})
