// The EventOutbox contract, as every move of an invoice relies on it: an event with a postback URL queues its delivery
// in the same write, seen through the postback worker's port; an event without one queues nothing; and an event goes
// to every webhook endpoint of its company and mode subscribed to its type, once per distinct URL (SPEC 8.2, 13.5).
import { expect } from "@effect/vitest"
import { type Endpoint, PostbackRepository, WebhookEndpointRepository } from "@fatura/application"
import { InvoiceStatus, WebhookEndpoint } from "@fatura/domain"
import { Effect } from "effect"
import * as fc from "fast-check"
import { propertyRuns } from "../../../../scripts/property-tests/settings.mjs"
import { aCompany, anEndpoint, anEvent, anInvoice, at, postbackUrl } from "../support/Fixtures.js"
import type { Contract, Stores } from "../support/TestDatabases.js"

/** Few URLs, so that endpoints and postback URLs share them often. */
const urls = ["https://a.example/hook", "https://b.example/hook", "https://c.example/hook"]

const anEndpointSpec = fc.record({
  url: fc.constantFrom(...urls),
  events: fc.uniqueArray(fc.constantFrom(...WebhookEndpoint.EventPattern.literals), { minLength: 1, maxLength: 3 }),
  mode: fc.constantFrom("test" as const, "live" as const),
  // Few instants, so that endpoints made at the same one are ordered by their ids.
  createdAt: fc.integer({ min: 0, max: 2 }),
  deleted: fc.boolean()
})

const anEventSpec = fc.record({
  type: fc.constantFrom(...InvoiceStatus.eventTypes),
  livemode: fc.boolean(),
  postbackUrl: fc.option(fc.constantFrom(...urls), { nil: null })
})

/** Where SPEC 8.2 and 13.5 say an event goes: its postback URL, then each live matching endpoint, once per URL. */
const expectedTargets = (
  endpoints: ReadonlyArray<Endpoint>,
  event: { readonly type: string; readonly livemode: boolean; readonly postbackUrl: string | null }
) => {
  const mode = event.livemode ? "live" : "test"
  const subscribed = endpoints
    .filter((endpoint) => endpoint.mode === mode && endpoint.events.some((p) => WebhookEndpoint.matches(p, event.type)))
    .sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1))
  const targets = [
    ...(event.postbackUrl === null ? [] : [{ endpointId: null, url: event.postbackUrl }]),
    ...subscribed.map((endpoint) => ({ endpointId: endpoint.id as string | null, url: endpoint.url }))
  ]
  return targets.filter((target, index) => targets.findIndex((other) => other.url === target.url) === index)
}

export const eventOutboxContract: Contract = (it) => {
  it.effect("queues a delivery with an event that has a postback URL, and none with one that has not", () =>
    Effect.gen(function* () {
      const postbacks = yield* PostbackRepository
      const company = yield* aCompany()
      const invoice = yield* anInvoice(company)
      const other = yield* aCompany()
      const posted = yield* anEvent(invoice, { createdAt: at(30) })
      const unposted = yield* anEvent(invoice, { postbackUrl: null, type: "invoice.paid" })

      const [delivery] = yield* postbacks.listDeliveries(company.id, { eventId: posted })
      expect(delivery).toEqual({
        id: delivery!.id,
        eventId: posted,
        endpointId: null,
        url: postbackUrl,
        status: "pending",
        attempts: 0,
        lastStatusCode: null,
        lastError: null,
        nextAttemptAt: at(30),
        createdAt: at(30),
        updatedAt: at(30)
      })
      expect(yield* postbacks.listDeliveries(company.id, { eventId: unposted })).toEqual([])
      expect(yield* postbacks.listDeliveries(company.id, { invoiceId: invoice.id })).toEqual([delivery])
      expect(yield* postbacks.listDeliveries(other.id, { eventId: posted })).toEqual([])
      expect(yield* postbacks.listDeliveries(other.id, { invoiceId: invoice.id })).toEqual([])
    })
  )

  it.effect("queues an event to each endpoint subscribed to its type, once per URL, the postback URL first", () =>
    Effect.gen(function* () {
      const postbacks = yield* PostbackRepository
      const company = yield* aCompany()
      const invoice = yield* anInvoice(company)
      const everything = yield* anEndpoint(company, { events: ["*"], createdAt: at(2) })
      const family = yield* anEndpoint(company, { events: ["invoice.*"], createdAt: at(1) })
      const paidOnly = yield* anEndpoint(company, { events: ["invoice.refunded", "invoice.paid"], createdAt: at(3) })
      // Not subscribed to `invoice.paid`, of the other mode, deleted, or another company's: none gets the event.
      yield* anEndpoint(company, { events: ["invoice.refunded"] })
      yield* anEndpoint(company, { mode: "live" })
      const deleted = yield* anEndpoint(company)
      yield* (yield* WebhookEndpointRepository).remove(company.id, "test", deleted.id, at(4))
      yield* anEndpoint(yield* aCompany())
      // The same URL as the invoice's own, and as an older endpoint: it is posted to once, by the first.
      const samePostbackUrl = yield* anEndpoint(company, { url: postbackUrl, createdAt: at(4) })
      yield* anEndpoint(company, { url: family.url, events: ["invoice.paid"], createdAt: at(5) })

      const paid = yield* anEvent(invoice, { type: "invoice.paid", createdAt: at(30) })
      const deliveries = yield* postbacks.listDeliveries(company.id, { eventId: paid })
      const pending = { eventId: paid, status: "pending", attempts: 0, nextAttemptAt: at(30), createdAt: at(30) }
      expect(deliveries.map(({ id: _, ...delivery }) => delivery)).toEqual(
        [
          { endpointId: null, url: postbackUrl },
          { endpointId: family.id, url: family.url },
          { endpointId: everything.id, url: everything.url },
          { endpointId: paidOnly.id, url: paidOnly.url }
        ].map((target) => ({
          ...pending,
          ...target,
          lastStatusCode: null,
          lastError: null,
          updatedAt: at(30)
        }))
      )

      // Without a postback URL, the endpoints alone; an event of the other mode reaches the other mode's endpoint.
      const created = yield* anEvent(invoice, { postbackUrl: null, type: "invoice.created" })
      expect((yield* postbacks.listDeliveries(company.id, { eventId: created })).map((d) => d.endpointId)).toEqual([
        family.id,
        everything.id,
        samePostbackUrl.id
      ])
      const live = yield* anEvent(invoice, { postbackUrl: null, livemode: true })
      expect(yield* postbacks.listDeliveries(company.id, { eventId: live })).toHaveLength(1)
    })
  )

  it.effect("queues every event where the rule of SPEC 8.2 and 13.5 says, for any endpoints and any event", () =>
    Effect.gen(function* () {
      // Each run is a company of its own, on the suite's database: the property runs its cases as promises.
      const context = yield* Effect.context<Stores>()
      const run = <A, E>(effect: Effect.Effect<A, E, Stores>) => Effect.runPromise(Effect.provide(effect, context))
      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(fc.array(anEndpointSpec, { maxLength: 5 }), anEventSpec, (specs, event) =>
            run(
              Effect.gen(function* () {
                const company = yield* aCompany()
                const invoice = yield* anInvoice(company)
                const endpoints: Array<Endpoint> = []
                for (const spec of specs) {
                  const endpoint = yield* anEndpoint(company, { ...spec, createdAt: at(spec.createdAt) })
                  if (spec.deleted) {
                    yield* (yield* WebhookEndpointRepository).remove(company.id, spec.mode, endpoint.id, at(3))
                  } else {
                    endpoints.push(endpoint)
                  }
                }
                const eventId = yield* anEvent(invoice, { ...event, createdAt: at(10) })
                const deliveries = yield* (yield* PostbackRepository).listDeliveries(company.id, { eventId })
                expect(deliveries.map(({ endpointId, url }) => ({ endpointId, url }))).toEqual(
                  expectedTargets(endpoints, event)
                )
              })
            )
          ),
          { numRuns: propertyRuns(25) }
        )
      )
    })
  )
}
