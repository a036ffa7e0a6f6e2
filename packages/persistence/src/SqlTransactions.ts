// The Transactions port over effect/sql: one database transaction per call, nested calls become savepoints. A
// transaction the database gives up on for another one's sake (a deadlock, a serialization failure) runs again,
// whole, from the outermost call.
import { StorageUnavailable, Transactions } from "@fatura/application"
import { Cause, Context, Duration, Effect, Layer, Random } from "effect"
import { SqlClient } from "effect/sql"
import { isSqlError } from "effect/sql/SqlError"
import { isContention, isUnavailable } from "./Columns.js"

/** How many times a transaction that lost a conflict runs again before the caller is told the database is busy. */
export const retries = 3

/** The first wait before running again; each later one doubles it, every one jittered to between ½ and 1½ of it. */
const firstDelayMillis = 10

/** One run of an outermost transaction's body, as what runs inside it reports to it. */
interface Run {
  /** A statement of this run lost a conflict, whether or not the body let the failure through. */
  contended: boolean
}

/** The run of the transaction the current fiber is in; none outside a transaction. */
const CurrentRun = Context.Reference<Run | undefined>("@fatura/persistence/SqlTransactions/CurrentRun", {
  defaultValue: () => undefined
})

/** A call outside the database from inside a transaction: a bug of the use case making it, never run. */
export class CallInsideTransaction extends Error {
  constructor() {
    super("a call outside the database was made inside a transaction; it was not made")
  }
}

/** Rolls back a run that lost a conflict but answered anyway (a nested failure turned into a response). */
class LostConflict {}

/** What a cause holds: its failures and its defects. */
const errorsOf = (cause: Cause.Cause<unknown>): ReadonlyArray<unknown> =>
  cause.reasons.flatMap((reason) =>
    Cause.isFailReason(reason) ? [reason.error] : Cause.isDieReason(reason) ? [reason.defect] : []
  )

/** The database went away: a failure or a defect (a ROLLBACK on a closed connection dies) says so. */
const lostDatabase = (cause: Cause.Cause<unknown>) =>
  errorsOf(cause).some((error) => error instanceof StorageUnavailable || (isSqlError(error) && isUnavailable(error)))

const lostConflict = (cause: Cause.Cause<unknown>) =>
  errorsOf(cause).some((error) => isSqlError(error) && isContention(error))

const unavailable = () => new StorageUnavailable({ message: "the database is unavailable" })

const busy = () => new StorageUnavailable({ message: "the database is busy with conflicting changes" })

/**
 * BEGIN, COMMIT and ROLLBACK add SqlErrors. A lost database, wherever it showed, is the expected failure (whether a
 * COMMIT cut off on its way landed is unknown; a repeat with its Idempotency-Key finds out); any other SqlError is
 * a bug.
 */
const settle = (cause: Cause.Cause<unknown>): Effect.Effect<never, unknown> => {
  if (lostDatabase(cause)) return Effect.fail(unavailable())
  const sqlFailure = cause.reasons.filter(Cause.isFailReason).find((reason) => isSqlError(reason.error))
  return sqlFailure === undefined ? Effect.failCause(cause) : Effect.die(sqlFailure.error)
}

export const layer = Layer.effect(
  Transactions,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /**
     * A savepoint of the enclosing transaction. Only the whole transaction can be run again (a serialization
     * failure concerns its snapshot, and the locks taken before the savepoint may be part of a deadlock), so a
     * lost conflict is reported to the enclosing run, and fails here as what it will be if the retries run out.
     */
    const nested = <A, E, R>(run: Run, effect: Effect.Effect<A, E, R>) =>
      sql.withTransaction(effect).pipe(
        Effect.catchCause((cause) => {
          if (!lostConflict(cause)) return settle(cause)
          run.contended = true
          return Effect.fail(busy())
        })
      )

    const outermost = <A, E, R>(effect: Effect.Effect<A, E, R>, retry: number): Effect.Effect<A, unknown, R> =>
      Effect.suspend(() => {
        const run: Run = { contended: false }
        return sql
          .withTransaction(
            effect.pipe(
              Effect.flatMap((value) => (run.contended ? Effect.fail(new LostConflict()) : Effect.succeed(value))),
              Effect.provideService(CurrentRun, run)
            )
          )
          .pipe(
            Effect.catchCause((cause) => {
              // An interrupted run stays interrupted: running it again is not the caller's wish.
              if ((!run.contended && !lostConflict(cause)) || Cause.hasInterrupts(cause)) return settle(cause)
              if (retry >= retries) {
                return Effect.logWarning("a transaction kept losing conflicts with others; giving up", {
                  runs: retry + 1
                }).pipe(Effect.andThen(Effect.fail(busy())))
              }
              return Random.next.pipe(
                Effect.flatMap((jitter) =>
                  Effect.sleep(Duration.millis(firstDelayMillis * 2 ** retry * (0.5 + jitter)))
                ),
                Effect.andThen(outermost(effect, retry + 1))
              )
            })
          )
      })

    return Transactions.of({
      withTransaction: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        Effect.gen(function* () {
          const run = yield* CurrentRun
          return yield* run === undefined ? outermost(effect, 0) : nested(run, effect)
        }) as Effect.Effect<A, E | StorageUnavailable, R>,

      external: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        Effect.gen(function* () {
          if ((yield* CurrentRun) !== undefined) return yield* Effect.die(new CallInsideTransaction())
          return yield* effect
        })
    })
  })
)
