// Webhook endpoints (SPEC 13.5): a company subscribes URLs to its events' types, in the mode of its key; every event
// of that mode goes to each endpoint it matches, signed like a postback, one delivery per distinct URL; an endpoint
// deleted receives nothing more.
import { describe, expect, it } from "@effect/vitest"
import { WebhookEndpoint } from "@fatura/domain"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { Invoices } from "../src/invoices/Invoices.js"
import { InvoiceLifecycle } from "../src/moves/InvoiceLifecycle.js"
import { Postbacks } from "../src/postbacks/Postbacks.js"
import { PostbackTargetRefused, PostbackTargets } from "../src/postbacks/PostbackTargets.js"
import { WebhookEndpoints } from "../src/postbacks/WebhookEndpoints.js"
import * as TestApplication from "../src/testing/TestApplication.js"
import * as TestPostbackSender from "../src/testing/TestPostbackSender.js"
import { liveMode, pixRequest, provided, registerMerchant, startClock, timestamp } from "./support/Merchant.js"

const hooks = "https://hooks.loja.example/fatura"

describe("WebhookEndpoints", () => {
  it.effect("subscribes a URL in the key's mode, each pattern once, and lists the mode's endpoints oldest first", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const endpoints = yield* WebhookEndpoints
        const first = yield* endpoints.create(principal, {
          url: hooks,
          events: ["invoice.paid", "invoice.*", "invoice.paid"]
        })
        expect(first).toEqual({
          id: first.id,
          companyId: principal.companyId,
          mode: "test",
          url: hooks,
          events: ["invoice.paid", "invoice.*"],
          createdAt: timestamp("2026-03-10T15:00:00.000Z")
        })
        expect(first.id).toMatch(/^we_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
        yield* TestClock.adjust("1 second")
        const second = yield* endpoints.create(principal, { url: `${hooks}/2`, events: ["*"] })
        const live = yield* endpoints.create(yield* liveMode(principal), { url: hooks, events: ["*"] })

        expect(yield* endpoints.list(principal)).toEqual([first, second])
        expect(yield* endpoints.list(yield* liveMode(principal))).toEqual([live])
        expect(yield* endpoints.list((yield* registerMerchant()).principal)).toEqual([])
      })
    )
  )

  it.effect("refuses an endpoint past the most a company may have in a mode, until one is deleted", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const endpoints = yield* WebhookEndpoints
        const made = yield* Effect.forEach(Array.from({ length: WebhookEndpoint.maxPerCompanyAndMode }), (_, n) =>
          endpoints.create(principal, { url: `${hooks}/${n}`, events: ["*"] })
        )
        const refused = yield* Effect.flip(endpoints.create(principal, { url: `${hooks}/x`, events: ["*"] }))
        expect(refused).toMatchObject({ _tag: "EndpointLimitReached", atMost: 10 })
        // The other mode counts on its own.
        yield* endpoints.create(yield* liveMode(principal), { url: `${hooks}/x`, events: ["*"] })
        yield* endpoints.remove(principal, made[0]!.id)
        yield* endpoints.create(principal, { url: `${hooks}/x`, events: ["*"] })
        expect(yield* endpoints.list(principal)).toHaveLength(10)
      })
    )
  )

  it.effect("deletes an endpoint of the caller's mode once; another company's or mode's is unknown", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const other = yield* registerMerchant()
        const endpoints = yield* WebhookEndpoints
        const endpoint = yield* endpoints.create(principal, { url: hooks, events: ["*"] })
        const notFound = { _tag: "EndpointNotFound", endpointId: endpoint.id }
        expect(yield* Effect.flip(endpoints.remove(other.principal, endpoint.id))).toMatchObject(notFound)
        expect(yield* Effect.flip(endpoints.remove(yield* liveMode(principal), endpoint.id))).toMatchObject(notFound)
        yield* endpoints.remove(principal, endpoint.id)
        expect(yield* Effect.flip(endpoints.remove(principal, endpoint.id))).toMatchObject(notFound)
        expect(yield* endpoints.list(principal)).toEqual([])
      })
    )
  )

  it.effect("delivers each event to the endpoints it matches, signed, once per URL; a deleted one gets no more", () =>
    provided(
      Effect.gen(function* () {
        const { principal, webhookSecret } = yield* registerMerchant()
        const endpoints = yield* WebhookEndpoints
        const postbacks = yield* Postbacks
        const sent = yield* TestPostbackSender.SentPostbacks
        const paidOnly = yield* endpoints.create(principal, { url: `${hooks}/paid`, events: ["invoice.paid"] })
        const everything = yield* endpoints.create(principal, { url: hooks, events: ["*"] })
        const { invoice } = yield* (yield* Invoices).create(principal, pixRequest({ postbackUrl: hooks }))
        yield* (yield* InvoiceLifecycle).pay(principal, invoice.secureId)
        yield* postbacks.deliverDue("worker-1")
        // `hooks` is the invoice's postback URL and an endpoint's: one delivery, as the postback URL's. Deliveries are
        // sent side by side: in no set order.
        const requests = (yield* sent.all).map((request) => [request.url, request.eventType, request.secrets])
        expect(requests.sort((a, b) => String(a).localeCompare(String(b)))).toEqual([
          [hooks, "invoice.created", [webhookSecret]],
          [hooks, "invoice.paid", [webhookSecret]],
          [`${hooks}/paid`, "invoice.paid", [webhookSecret]]
        ])
        const deliveries = yield* postbacks.deliveries(principal, { invoice: invoice.secureId })
        expect(deliveries.map((delivery) => [delivery.endpointId, delivery.url, delivery.status])).toEqual([
          [null, hooks, "succeeded"],
          [null, hooks, "succeeded"],
          [paidOnly.id, `${hooks}/paid`, "succeeded"]
        ])

        yield* endpoints.remove(principal, paidOnly.id)
        const second = (yield* (yield* Invoices).create(principal, pixRequest())).invoice
        yield* (yield* InvoiceLifecycle).pay(principal, second.secureId)
        yield* postbacks.deliverDue("worker-1")
        const more = (yield* sent.all).slice(3).map((request) => [request.url, request.eventType])
        expect(more.sort((a, b) => String(a).localeCompare(String(b)))).toEqual([
          [hooks, "invoice.created"],
          [hooks, "invoice.paid"]
        ])
        const secondDeliveries = yield* postbacks.deliveries(principal, { invoice: second.secureId })
        expect(secondDeliveries.map((delivery) => delivery.endpointId)).toEqual([everything.id, everything.id])
      })
    )
  )

  it.effect("refuses a URL that postbacks may not go to, as an invoice's postback URL would be", () =>
    Effect.gen(function* () {
      yield* startClock
      const { principal } = yield* registerMerchant()
      const endpoints = yield* WebhookEndpoints
      const refused = yield* Effect.flip(endpoints.create(yield* liveMode(principal), { url: hooks, events: ["*"] }))
      expect(refused).toMatchObject({ _tag: "EndpointUrlRefused", reason: "resolves to a private address" })
      expect(yield* endpoints.list(yield* liveMode(principal))).toEqual([])
      // Test mode allows private targets unless told otherwise (SPEC 8.4): nothing is checked there.
      yield* endpoints.create(principal, { url: hooks, events: ["*"] })
    }).pipe(
      Effect.provide(
        TestApplication.withProviders(
          Layer.mergeAll(
            TestApplication.providers,
            Layer.succeed(
              PostbackTargets,
              PostbackTargets.of({
                check: () => Effect.fail(new PostbackTargetRefused({ reason: "resolves to a private address" }))
              })
            )
          )
        )
      )
    )
  )
})
