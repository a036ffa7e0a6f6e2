// The EventOutbox port in memory: an event, and the delivery that it queues when it has a postback URL.
import { Effect, Layer } from "effect"
import { EventOutbox } from "../postbacks/EventOutbox.js"
import { InMemoryDatabase, violated } from "./InMemoryDatabase.js"
import { asJson, put } from "./InMemoryTables.js"

export const layer = Layer.effect(
  EventOutbox,
  Effect.gen(function* () {
    const database = yield* InMemoryDatabase

    return EventOutbox.of({
      recordEvent: (event) =>
        database.statement(
          Effect.gen(function* () {
            const clash = yield* database.read((tables) =>
              tables.events.has(event.id)
                ? "events_pkey"
                : !tables.companies.has(event.companyId)
                  ? "events_company_id_fkey"
                  : !tables.invoices.has(event.invoiceId)
                    ? "events_invoice_id_fkey"
                    : undefined
            )
            if (clash !== undefined) return yield* violated(clash, `event ${event.id} cannot be recorded`)
            const seq = yield* database.nextval("events")
            yield* database.write(
              put("events", event.id, {
                id: event.id,
                seq,
                companyId: event.companyId,
                invoiceId: event.invoiceId,
                type: event.type,
                livemode: event.livemode,
                data: asJson(event.data),
                createdAt: event.createdAt,
                reason: event.reason ?? null
              })
            )
            // The outbox: the delivery is written with the event, or neither is.
            if (event.postbackUrl !== null) {
              const id = yield* database.nextval("deliveries")
              yield* database.write(
                put("deliveries", id, {
                  id,
                  eventId: event.id,
                  companyId: event.companyId,
                  url: event.postbackUrl,
                  status: "pending",
                  attempts: 0,
                  lastStatusCode: null,
                  lastError: null,
                  nextAttemptAt: event.createdAt,
                  leaseUntil: null,
                  leasedBy: null,
                  createdAt: event.createdAt,
                  updatedAt: event.createdAt
                })
              )
            }
          })
        )
    })
  })
)
