// Use case: forgetting what has outlived its retention — stored responses to requests with an Idempotency-Key (SPEC 9:
// kept at least 24 h) and events with their deliveries and attempts (SPEC 8.1: kept at least 30 days). It removes them
// in small batches, each in a short transaction of its own, so a request's writes never wait long behind a purge. A
// worker runs the loop; in embedded mode the server runs it in its own process (SPEC 8.3).
import { Timestamp } from "@fatura/domain"
import { Context, Duration, Effect, Layer, Option, Schedule, Schema } from "effect"
import { PostbackRepository } from "../postbacks/PostbackRepository.js"
import * as Clock from "./Clock.js"
import type { StorageUnavailable } from "./Failures.js"
import { IdempotencyStore } from "./IdempotencyStore.js"
import { Transactions } from "./Transactions.js"

export interface RetentionPeriods {
  /** How long the response to a request with an Idempotency-Key is kept to be replayed. */
  readonly idempotency: Duration.Duration
  /**
   * How long an event is kept, with its deliveries and their attempts. An event a delivery still waits on (pending:
   * not yet attempted, retrying, or retried by hand) is kept until that delivery succeeds or fails.
   */
  readonly events: Duration.Duration
}

/** The retention periods; SPEC 8.1 and 9's minimums unless configured otherwise. `Duration.infinity` keeps for ever. */
export const RetentionPeriods = Context.Reference<RetentionPeriods>("@fatura/application/RetentionPeriods", {
  defaultValue: () => ({ idempotency: Duration.hours(24), events: Duration.days(30) })
})

/**
 * A retention period as a setting spells it (`24 hours`, `30 days`, `Infinity`): longer than zero, since a period of
 * zero or less would forget what was just written.
 */
export const RetentionPeriod = Schema.DurationFromString.check(
  Schema.makeFilter((period) => Duration.isPositive(period) || "a duration longer than zero, or Infinity")
)

/** Rows per transaction: few enough that a batch's locks are held for milliseconds. */
const idempotencyBatchSize = 500
/** Events per transaction; each takes its deliveries and their attempts (up to nine each) along. */
const eventBatchSize = 100

export interface Purged {
  readonly idempotencyRecords: number
  readonly events: number
}

/**
 * The instant before which what was recorded is past `period`; none when nothing can be: the period is infinite, or
 * reaches back before 1970, when nothing was recorded.
 */
const cutoff = (now: Timestamp.Timestamp, period: Duration.Duration): Option.Option<Timestamp.Timestamp> =>
  Option.flatMap(Duration.toNanos(period), (nanos) => {
    const micros = Timestamp.toEpochMicros(now) - nanos / 1000n
    return micros > 0n ? Option.some(Timestamp.fromEpochMicros(micros)) : Option.none()
  })

export class Retention extends Context.Service<
  Retention,
  {
    /** Removes everything past its retention now, batch after batch; tells how much it removed. */
    readonly purge: Effect.Effect<Purged, StorageUnavailable>
    /** Purges every `interval` for ever; a failed purge is logged and tried again at the next tick. */
    readonly run: (interval: Duration.Input) => Effect.Effect<never>
  }
>()("@fatura/application/Retention") {
  static readonly layer = Layer.effect(
    Retention,
    Effect.gen(function* () {
      const idempotency = yield* IdempotencyStore
      const postbacks = yield* PostbackRepository
      const transactions = yield* Transactions
      // Settings are read once, when the service is built, from whatever configured it.
      const periods = yield* RetentionPeriods

      /** Runs `batch` in transactions of its own until one removes fewer than `size`; the total removed. */
      const inBatches = (
        before: Option.Option<Timestamp.Timestamp>,
        size: number,
        batch: (before: Timestamp.Timestamp, limit: number) => Effect.Effect<number, StorageUnavailable>
      ) =>
        Effect.gen(function* () {
          if (Option.isNone(before)) return 0
          let total = 0
          while (true) {
            const removed = yield* transactions.withTransaction(batch(before.value, size))
            total += removed
            if (removed < size) return total
          }
        })

      const purge = Effect.gen(function* () {
        const now = yield* Clock.now
        const idempotencyRecords = yield* inBatches(
          cutoff(now, periods.idempotency),
          idempotencyBatchSize,
          idempotency.purge
        )
        const events = yield* inBatches(cutoff(now, periods.events), eventBatchSize, postbacks.purgeEvents)
        return { idempotencyRecords, events }
      }).pipe(Effect.withSpan("Retention.purge"))

      const run = (interval: Duration.Input) =>
        purge.pipe(
          Effect.tap((purged) =>
            purged.idempotencyRecords + purged.events > 0
              ? Effect.logInfo("purged what is past its retention", purged)
              : Effect.void
          ),
          Effect.catchCause((cause) => Effect.logWarning("retention purge failed", cause)),
          Effect.repeat(Schedule.spaced(interval)),
          Effect.andThen(Effect.never)
        )

      return Retention.of({ purge, run })
    })
  )
}
