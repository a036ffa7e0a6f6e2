// Use cases of postbacks (SPEC 4.8, 8): delivering due events, signed, at least once, on the retry schedule;
// and the merchant's view of events and deliveries, manual retries and secret rolls.
import { PostbackSchedule, Timestamp } from "@fatura/domain"
import { Context, type Duration, Effect, Layer, Option, Random } from "effect"
import type { Principal } from "../companies/Principal.js"
import { parseReference } from "../invoices/InvoiceReference.js"
import { InvoiceRepository } from "../invoices/InvoiceRepository.js"
import * as Clock from "../platform/Clock.js"
import {
  DeliveryNotFound,
  EventNotFound,
  InvoiceNotFound,
  type StorageUnavailable,
  UnknownCursor
} from "../platform/Failures.js"
import * as Metrics from "../platform/Metrics.js"
import { newWebhookSecret } from "../platform/Secrets.js"
import {
  type AttemptOutcome,
  type ClaimedDelivery,
  type Delivery,
  PostbackRepository,
  type StoredEvent
} from "./PostbackRepository.js"
import { PostbackSender } from "./PostbackSender.js"
import { AllowPrivatePostbacksInTest, PostbackTargets, privateTargetsAllowed } from "./PostbackTargets.js"

/**
 * How long a claimed delivery is held: longer than an attempt may last (10 s), so that a lease lapses only
 * when its worker is gone; then another worker takes the delivery up.
 */
export const PostbackLeaseSeconds = Context.Reference<number>("@fatura/application/PostbackLeaseSeconds", {
  defaultValue: () => 60
})
const batchSize = 50
const concurrency = 16
export const secretOverlapSeconds = 24 * 60 * 60

/**
 * How many secrets of a mode sign a postback at most: the current one and the two rolled last. Each is a `v1=` entry
 * of the signature header; uncapped, a few hundred rolls pushed the header past what HTTP servers take (16 KB in
 * Node) and every postback failed for a day. A roll past the cap ends the oldest overlap at once.
 */
export const signingSecretsAtMost = 3

export interface EventQuery {
  readonly limit: number
  readonly startingAfter: string | null
  readonly type: string | null
  readonly invoice: string | null
}

export interface EventPage {
  readonly events: ReadonlyArray<StoredEvent>
  readonly hasMore: boolean
}

export class Postbacks extends Context.Service<
  Postbacks,
  {
    /** One round of work for `worker`: claims due deliveries and attempts each; returns how many it attempted. */
    readonly deliverDue: (worker: string) => Effect.Effect<number, StorageUnavailable>
    /** Delivers for ever, polling every `interval` when there is nothing to do. */
    readonly run: (worker: string, interval: Duration.Input) => Effect.Effect<never>
    readonly events: (
      principal: Principal,
      query: EventQuery
    ) => Effect.Effect<EventPage, UnknownCursor | InvoiceNotFound | StorageUnavailable>
    readonly deliveries: (
      principal: Principal,
      filter: { readonly eventId: string } | { readonly invoice: string }
    ) => Effect.Effect<ReadonlyArray<Delivery>, InvoiceNotFound | EventNotFound | StorageUnavailable>
    readonly retry: (
      principal: Principal,
      deliveryId: number
    ) => Effect.Effect<void, DeliveryNotFound | StorageUnavailable>
    /**
     * A new signing secret for the caller's mode, shown once; the one it replaces keeps signing alongside for 24 h,
     * as do the ones rolled within 24 h before it, up to `signingSecretsAtMost` secrets in all: the oldest overlap
     * beyond that ends at once.
     */
    readonly rollSecret: (principal: Principal) => Effect.Effect<string, StorageUnavailable>
  }
>()("@fatura/application/Postbacks") {
  static readonly layer = Layer.effect(
    Postbacks,
    Effect.gen(function* () {
      const repository = yield* PostbackRepository
      const sender = yield* PostbackSender
      const targets = yield* PostbackTargets
      const invoices = yield* InvoiceRepository
      // Settings are read once, when the service is built, from whatever configured it.
      const allowPrivatePostbacksInTest = yield* AllowPrivatePostbacksInTest
      const leaseSeconds = yield* PostbackLeaseSeconds

      const attempt = Effect.fnUntraced(function* (worker: string, delivery: ClaimedDelivery) {
        const startedAt = yield* Clock.now
        const allowPrivate = privateTargetsAllowed(delivery.livemode ? "live" : "test", allowPrivatePostbacksInTest)
        const result = yield* Effect.gen(function* () {
          const addresses = allowPrivate ? null : yield* targets.check(delivery.url)
          return yield* sender.send({
            url: delivery.url,
            addresses,
            eventId: delivery.eventId,
            eventType: delivery.eventType,
            body: delivery.body,
            // Rolls keep to the cap; secrets rolled before there was one may still be more, until their overlap ends.
            secrets: delivery.secrets.slice(0, signingSecretsAtMost),
            timestamp: Math.floor(Timestamp.toEpochMillis(startedAt) / 1000)
          })
        }).pipe(
          Effect.map((sent) => ({
            statusCode: sent.statusCode as number | null,
            error: null as string | null,
            durationMs: sent.durationMs
          })),
          Effect.catchTags({
            PostbackTargetRefused: (refused) =>
              Effect.succeed({ statusCode: null, error: `not sent: ${refused.reason}`, durationMs: 0 }),
            PostbackSendFailed: (failed) =>
              Effect.succeed({ statusCode: null, error: failed.error, durationMs: failed.durationMs })
          })
        )
        const finishedAt = yield* Clock.now
        const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300
        const delay = PostbackSchedule.delayAfter(delivery.attempt, (yield* Random.next) * 2 - 1)
        const outcome: AttemptOutcome = succeeded
          ? { _tag: "Succeeded" }
          : delay === undefined
            ? { _tag: "Failed" }
            : { _tag: "Retry", nextAttemptAt: Timestamp.plusSeconds(finishedAt, delay) }
        yield* repository.recordAttempt({
          deliveryId: delivery.id,
          attempt: delivery.attempt,
          worker,
          startedAt,
          finishedAt,
          statusCode: result.statusCode,
          error: result.error ?? (succeeded ? null : `answered ${result.statusCode}`),
          durationMs: result.durationMs,
          outcome
        })
        yield* Metrics.countPostbackAttempt(
          outcome._tag === "Succeeded" ? "succeeded" : outcome._tag === "Retry" ? "retry" : "failed"
        )
      })

      const deliverDue = Effect.fn("Postbacks.deliverDue")(function* (worker: string) {
        const now = yield* Clock.now
        const claimed = yield* repository.claimDue({
          now,
          leaseUntil: Timestamp.plusSeconds(now, leaseSeconds),
          worker,
          limit: batchSize
        })
        // An attempt once started is finished and recorded even when the worker is stopping (SPEC 11.2); a stop
        // only keeps the rest of the batch from starting, and their leases hand them to the next worker.
        yield* Effect.forEach(claimed, (delivery) => Effect.uninterruptible(attempt(worker, delivery)), {
          concurrency,
          discard: true
        })
        return claimed.length
      })

      const run = (worker: string, interval: Duration.Input) =>
        deliverDue(worker).pipe(
          // A full batch means more may be waiting: go again at once; otherwise wait for the next tick.
          Effect.flatMap((count) => (count === batchSize ? Effect.void : Effect.sleep(interval))),
          Effect.catchCause((cause) =>
            Effect.logWarning("postback round failed", cause).pipe(Effect.andThen(Effect.sleep(interval)))
          ),
          Effect.forever
        )

      /** The caller's invoice named by a secureId or an id, as everywhere else. */
      const invoiceId = Effect.fnUntraced(function* (principal: Principal, raw: string) {
        const reference = parseReference(raw)
        const found = Option.isNone(reference)
          ? Option.none()
          : yield* invoices.find(principal.companyId, principal.mode, reference.value)
        if (Option.isNone(found)) return yield* new InvoiceNotFound({ reference: raw })
        return found.value.id
      })

      const events = Effect.fn("Postbacks.events")(function* (principal: Principal, query: EventQuery) {
        const livemode = principal.mode === "live"
        let before: number | null = null
        if (query.startingAfter !== null) {
          const position = yield* repository.eventPosition(principal.companyId, livemode, query.startingAfter)
          if (Option.isNone(position)) return yield* new UnknownCursor({ cursor: query.startingAfter })
          before = position.value
        }
        const found = yield* repository.listEvents({
          companyId: principal.companyId,
          livemode,
          before,
          type: query.type,
          invoiceId: query.invoice === null ? null : yield* invoiceId(principal, query.invoice),
          limit: query.limit
        })
        return { events: found.slice(0, query.limit), hasMore: found.length > query.limit }
      })

      return Postbacks.of({
        deliverDue,
        run,
        events,
        deliveries: Effect.fn("Postbacks.deliveries")(function* (principal, filter) {
          if ("eventId" in filter) {
            // Another company's event, or one of the other mode, answers like an unknown one.
            const position = yield* repository.eventPosition(
              principal.companyId,
              principal.mode === "live",
              filter.eventId
            )
            if (Option.isNone(position)) return yield* new EventNotFound({ eventId: filter.eventId })
            return yield* repository.listDeliveries(principal.companyId, filter)
          }
          return yield* repository.listDeliveries(principal.companyId, {
            invoiceId: yield* invoiceId(principal, filter.invoice)
          })
        }),
        retry: Effect.fn("Postbacks.retry")(function* (principal, deliveryId) {
          const found = yield* repository.retry(principal.companyId, principal.mode, deliveryId, yield* Clock.now)
          if (!found) return yield* new DeliveryNotFound({ deliveryId })
        }),
        rollSecret: Effect.fn("Postbacks.rollSecret")(function* (principal) {
          const secret = newWebhookSecret()
          const now = yield* Clock.now
          yield* repository.rollWebhookSecret(principal.companyId, principal.mode, secret, now, {
            until: Timestamp.plusSeconds(now, secretOverlapSeconds),
            rolledAtMost: signingSecretsAtMost - 1
          })
          return secret
        })
      })
    })
  )
}
