// The Transactions port over effect/sql: one database transaction per call, nested calls become savepoints.
import { StorageUnavailable, Transactions } from "@fatura/application"
import { Cause, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { isSqlError } from "effect/sql/SqlError"
import { isUnavailable } from "./Columns.js"

/** The database went away: a failure or a defect (a ROLLBACK on a closed connection dies) says so. */
const lostDatabase = (cause: Cause.Cause<unknown>) =>
  cause.reasons.some((reason) => {
    const error = Cause.isFailReason(reason) ? reason.error : Cause.isDieReason(reason) ? reason.defect : undefined
    return error instanceof StorageUnavailable || (isSqlError(error) && isUnavailable(error))
  })

export const layer = Layer.effect(
  Transactions,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return Transactions.of({
      withTransaction: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        // BEGIN, COMMIT and ROLLBACK add SqlErrors. A lost database, wherever it showed, is the expected failure
        // (whether a COMMIT cut off on its way landed is unknown; a repeat with its Idempotency-Key finds out);
        // any other SqlError is a bug.
        sql.withTransaction(effect).pipe(
          Effect.catchCause((cause): Effect.Effect<never, unknown> => {
            if (lostDatabase(cause))
              return Effect.fail(new StorageUnavailable({ message: "the database is unavailable" }))
            const sqlFailure = cause.reasons.filter(Cause.isFailReason).find((reason) => isSqlError(reason.error))
            return sqlFailure === undefined ? Effect.failCause(cause) : Effect.die(sqlFailure.error)
          })
        ) as Effect.Effect<A, E | StorageUnavailable, R>
    })
  })
)
