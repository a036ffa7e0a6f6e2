// The Transactions port over effect/sql: one database transaction per call, nested calls become savepoints.
import { StorageUnavailable, Transactions } from "@fatura/application"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { isSqlError, type SqlError } from "effect/sql/SqlError"
import { isUnavailable } from "./Columns.js"

export const layer = Layer.effect(
  Transactions,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return Transactions.of({
      withTransaction: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        // BEGIN and COMMIT add SqlError to the channel; only a lost connection stays an expected failure.
        sql.withTransaction(effect).pipe(
          Effect.catchIf(
            (error): error is SqlError => isSqlError(error),
            (error) =>
              isUnavailable(error)
                ? Effect.fail(new StorageUnavailable({ message: "the database is unavailable" }))
                : Effect.die(error)
          )
        ) as Effect.Effect<A, E | StorageUnavailable, R>
    })
  })
)
