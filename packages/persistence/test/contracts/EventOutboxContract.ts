// The EventOutbox contract, as every move of an invoice relies on it: an event with a postback URL queues its delivery
// in the same write, seen through the postback worker's port; an event without one queues nothing; and an event goes
// to every webhook endpoint of its company and mode subscribed to its type, once per distinct URL (SPEC 8.2, 13.5).
import { expect } from "@effect/vitest"
import { PostbackRepository, WebhookEndpointRepository } from "@fatura/application"
import { Effect } from "effect"
import { aCompany, anEndpoint, anEvent, anInvoice, at, postbackUrl } from "../support/Fixtures.js"
import type { Contract } from "../support/TestDatabases.js"

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
}
