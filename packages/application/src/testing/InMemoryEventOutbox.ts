// The EventOutbox port in memory: an event, and the deliveries it queues: to its postback URL when it has one, and to
// every webhook endpoint of its company and mode subscribed to its type, one per distinct URL.
import { WebhookEndpoint } from "@fatura/domain"
import { Effect, Layer } from "effect"
import { EventOutbox } from "../postbacks/EventOutbox.js"
import { InMemoryDatabase, violated } from "./InMemoryDatabase.js"
import { asJson, put } from "./InMemoryTables.js"
import { subscribedOf } from "./InMemoryWebhookEndpointRepository.js"

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
                  : event.invoiceId !== null && !tables.invoices.has(event.invoiceId)
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
            // The outbox: the deliveries are written with the event, or nothing is. The invoice's own URL first, then
            // the endpoints oldest first; a URL already queued is not queued again.
            const mode = event.livemode ? "live" : "test"
            const matching = WebhookEndpoint.patternsMatching(event.type)
            const endpoints = yield* database.read((tables) =>
              subscribedOf(tables, event.companyId, mode).filter((row) =>
                row.events.some((pattern) => matching.includes(pattern))
              )
            )
            const targets = [
              ...(event.postbackUrl === null ? [] : [{ endpointId: null, url: event.postbackUrl }]),
              ...endpoints.map((endpoint) => ({ endpointId: endpoint.id, url: endpoint.url }))
            ]
            const queued = new Set<string>()
            for (const target of targets) {
              if (queued.has(target.url)) continue
              queued.add(target.url)
              const id = yield* database.nextval("deliveries")
              yield* database.write(
                put("deliveries", id, {
                  id,
                  eventId: event.id,
                  endpointId: target.endpointId,
                  companyId: event.companyId,
                  url: target.url,
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
