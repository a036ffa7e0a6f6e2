// The PostbackRepository port in memory: events in the order they were recorded, deliveries claimed under a lease
// (one worker at a time; a lapsed lease hands a delivery to the next), and each mode's signing secrets. A purge takes
// events past their retention with their deliveries, never one a delivery still waits on.
import type { Company, Invoice, Timestamp } from "@fatura/domain"
import { Effect, Layer, Option } from "effect"
import {
  type ClaimedDelivery,
  type Delivery,
  PostbackRepository,
  type StoredEvent
} from "../postbacks/PostbackRepository.js"
import { companyLock } from "./InMemoryCompanyRepository.js"
import { InMemoryDatabase, violated } from "./InMemoryDatabase.js"
import { type DeliveryRow, type EventRow, put, remove, type Tables } from "./InMemoryTables.js"

const deliveryLock = (id: number) => `deliveries ${id}`

const eventLock = (id: string) => `events ${id}`

/** Whether a delivery of the event still waits to be sent. */
const awaited = (tables: Tables, eventId: string) =>
  [...tables.deliveries.values()].some((delivery) => delivery.eventId === eventId && delivery.status === "pending")

const toDelivery = ({ companyId: _, leaseUntil: __, leasedBy: ___, ...delivery }: DeliveryRow): Delivery => delivery

const toEvent = (row: EventRow): StoredEvent => ({
  id: row.id,
  type: row.type,
  createdAt: row.createdAt,
  livemode: row.livemode,
  data: row.data,
  reason: row.reason
})

/** Every secret of the company's mode that still signs at `now`, newest first. */
const signingSecrets = (tables: Tables, companyId: Company.CompanyId, mode: Invoice.Mode, now: Timestamp.Timestamp) =>
  [...tables.webhookSecrets.values()]
    .filter(
      (secret) =>
        secret.companyId === companyId &&
        secret.mode === mode &&
        (secret.signsUntil === null || secret.signsUntil > now)
    )
    .sort((a, b) => b.id - a.id)
    .map((secret) => secret.secret)

export const layer = Layer.effect(
  PostbackRepository,
  Effect.gen(function* () {
    const database = yield* InMemoryDatabase

    const insertSecret = (companyId: Company.CompanyId, mode: Invoice.Mode, secret: string, now: Timestamp.Timestamp) =>
      Effect.gen(function* () {
        if (!(yield* database.read((tables) => tables.companies.has(companyId)))) {
          return yield* violated("webhook_secrets_company_id_fkey", "no company has that id")
        }
        const id = yield* database.nextval("webhookSecrets")
        yield* database.write(
          put("webhookSecrets", id, { id, companyId, mode, secret, createdAt: now, signsUntil: null })
        )
      })

    return PostbackRepository.of({
      claimDue: ({ now, leaseUntil, worker, limit }) =>
        database.statement(
          Effect.gen(function* () {
            const isDue = (delivery: DeliveryRow) =>
              delivery.status === "pending" &&
              delivery.nextAttemptAt !== null &&
              delivery.nextAttemptAt <= now &&
              (delivery.leaseUntil === null || delivery.leaseUntil < now)
            const due = yield* database.read((tables) =>
              [...tables.deliveries.values()]
                .filter(isDue)
                .sort((a, b) =>
                  a.nextAttemptAt! < b.nextAttemptAt! ? -1 : a.nextAttemptAt! > b.nextAttemptAt! ? 1 : a.id - b.id
                )
                .map((delivery) => delivery.id)
            )
            const claimed: Array<ClaimedDelivery> = []
            for (const id of due) {
              if (claimed.length === limit) break
              // SKIP LOCKED: a delivery another transaction is claiming or settling is left to it; one taken is read
              // again under the lock, since another worker may have claimed it in the meantime.
              if (!(yield* database.tryLock(deliveryLock(id)))) continue
              if (!(yield* database.read((tables) => isDue(tables.deliveries.get(id)!)))) continue
              const { delivery, event, secrets } = yield* database.read((tables) => {
                const delivery = tables.deliveries.get(id)!
                const event = tables.events.get(delivery.eventId)!
                const mode = event.livemode ? "live" : "test"
                return { delivery, event, secrets: signingSecrets(tables, delivery.companyId, mode, now) }
              })
              const attempt = delivery.attempts + 1
              yield* database.write(
                put("deliveries", id, { ...delivery, attempts: attempt, leaseUntil, leasedBy: worker, updatedAt: now })
              )
              claimed.push({
                id,
                attempt,
                url: delivery.url,
                livemode: event.livemode,
                eventId: event.id,
                eventType: event.type,
                body: JSON.stringify({
                  id: event.id,
                  type: event.type,
                  created_at: event.createdAt,
                  livemode: event.livemode,
                  data: event.data,
                  ...(event.reason === null ? {} : { reason: event.reason })
                }),
                secrets
              })
            }
            return claimed
          })
        ),

      recordAttempt: (attempt) =>
        database.statement(
          Effect.gen(function* () {
            yield* database.lock(deliveryLock(attempt.deliveryId))
            const delivery = yield* database.read((tables) => tables.deliveries.get(attempt.deliveryId))
            // Only the holder of the current lease settles the delivery: a worker that lost its lease (another
            // took the delivery over) leaves it alone.
            if (
              delivery === undefined ||
              delivery.attempts !== attempt.attempt ||
              delivery.leasedBy !== attempt.worker
            ) {
              return
            }
            const outcome = attempt.outcome
            yield* database.write(
              put("deliveries", delivery.id, {
                ...delivery,
                status: outcome._tag === "Succeeded" ? "succeeded" : outcome._tag === "Failed" ? "failed" : "pending",
                lastStatusCode: attempt.statusCode,
                lastError: attempt.error,
                nextAttemptAt: outcome._tag === "Retry" ? outcome.nextAttemptAt : null,
                leaseUntil: null,
                leasedBy: null,
                updatedAt: attempt.finishedAt
              })
            )
          })
        ),

      listDeliveries: (companyId, filter) =>
        database.read((tables) =>
          [...tables.deliveries.values()]
            .filter(
              (delivery) =>
                delivery.companyId === companyId &&
                ("eventId" in filter
                  ? delivery.eventId === filter.eventId
                  : tables.events.get(delivery.eventId)?.invoiceId === filter.invoiceId)
            )
            .sort((a, b) => a.id - b.id)
            .map(toDelivery)
        ),

      retry: (companyId, mode, deliveryId, now) =>
        database.statement(
          Effect.gen(function* () {
            yield* database.lock(deliveryLock(deliveryId))
            const delivery = yield* database.read((tables) => tables.deliveries.get(deliveryId))
            const livemode = yield* database.read((tables) =>
              delivery === undefined ? undefined : tables.events.get(delivery.eventId)?.livemode
            )
            if (delivery === undefined || delivery.companyId !== companyId || livemode !== (mode === "live")) {
              return false
            }
            yield* database.write(
              put("deliveries", deliveryId, { ...delivery, status: "pending", nextAttemptAt: now, updatedAt: now })
            )
            return true
          })
        ),

      listEvents: (filter) =>
        database.read((tables) =>
          [...tables.events.values()]
            .filter(
              (event) =>
                event.companyId === filter.companyId &&
                event.livemode === filter.livemode &&
                (filter.before === null || event.seq < filter.before) &&
                (filter.type === null || event.type === filter.type) &&
                (filter.invoiceId === null || event.invoiceId === filter.invoiceId)
            )
            .sort((a, b) => b.seq - a.seq)
            .slice(0, filter.limit + 1)
            .map(toEvent)
        ),

      eventPosition: (companyId, livemode, eventId) =>
        database.read((tables) =>
          Option.map(
            Option.filter(
              Option.fromNullishOr(tables.events.get(eventId)),
              (event) => event.companyId === companyId && event.livemode === livemode
            ),
            (event) => event.seq
          )
        ),

      purgeEvents: (recordedBefore, limit) =>
        database.statement(
          Effect.gen(function* () {
            const old = yield* database.read((tables) =>
              [...tables.events.values()]
                .filter((event) => event.createdAt < recordedBefore && !awaited(tables, event.id))
                .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.seq - b.seq))
                .map((event) => event.id)
            )
            let purged = 0
            for (const eventId of old) {
              if (purged === limit) break
              // SKIP LOCKED: an event another purge holds is left to it; one taken is read again under the lock.
              if (!(yield* database.tryLock(eventLock(eventId)))) continue
              if (!(yield* database.read((tables) => tables.events.has(eventId)))) continue
              const deliveries = yield* database.read((tables) =>
                [...tables.deliveries.values()]
                  .filter((delivery) => delivery.eventId === eventId)
                  .map((delivery) => delivery.id)
                  .sort((a, b) => a - b)
              )
              // Its deliveries, locked: a retry by hand that made one pending meanwhile keeps the event.
              for (const id of deliveries) yield* database.lock(deliveryLock(id))
              if (yield* database.read((tables) => awaited(tables, eventId))) continue
              for (const id of deliveries) yield* database.write(remove("deliveries", id))
              yield* database.write(remove("events", eventId))
              purged += 1
            }
            return purged
          })
        ),

      createWebhookSecret: (companyId, mode, secret, now) =>
        database.statement(
          Effect.gen(function* () {
            // Like the unique index on the current secret: a second first call waits, then finds one.
            yield* database.lock(`webhook secret ${companyId} ${mode}`)
            const current = yield* database.read((tables) =>
              [...tables.webhookSecrets.values()].some(
                (row) => row.companyId === companyId && row.mode === mode && row.signsUntil === null
              )
            )
            if (current) return false
            yield* insertSecret(companyId, mode, secret, now)
            return true
          })
        ),

      rollWebhookSecret: (companyId, mode, secret, now, overlap) =>
        database.statement(
          Effect.gen(function* () {
            // Rolls of one company wait for each other, so only one secret is ever current.
            yield* database.lock(companyLock(companyId))
            yield* database.lock(`webhook secret ${companyId} ${mode}`)
            const secrets = yield* database.read((tables) =>
              [...tables.webhookSecrets.values()].filter((row) => row.companyId === companyId && row.mode === mode)
            )
            // Newest first: past the cap, the oldest rolled secrets stop signing now.
            const rolled = secrets
              .filter((row) => row.signsUntil === null || row.signsUntil > now)
              .sort((a, b) => b.id - a.id)
              .slice(overlap.rolledAtMost)
            for (const row of secrets) {
              // Secrets that no longer sign are of no use to anyone: they go.
              if ((row.signsUntil !== null && row.signsUntil <= now) || rolled.includes(row)) {
                yield* database.write(remove("webhookSecrets", row.id))
              } else if (row.signsUntil === null) {
                yield* database.write(put("webhookSecrets", row.id, { ...row, signsUntil: overlap.until }))
              }
            }
            yield* insertSecret(companyId, mode, secret, now)
          })
        )
    })
  })
)
