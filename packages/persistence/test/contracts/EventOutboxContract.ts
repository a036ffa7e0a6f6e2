// The EventOutbox contract, as every move of an invoice relies on it: an event with a postback URL queues its delivery
// in the same write, seen through the postback worker's port; an event without one queues nothing.
import { expect } from "@effect/vitest"
import { PostbackRepository } from "@fatura/application"
import { Effect } from "effect"
import { aCompany, anEvent, anInvoice, at, postbackUrl } from "../support/Fixtures.js"
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
}
