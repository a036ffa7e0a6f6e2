// The Readiness port: one trivial query, bounded in time so a hung database reads as "not ready".
import { Readiness, StorageUnavailable } from "@fatura/application"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { storage } from "./Columns.js"

export const layer = Layer.effect(
  Readiness,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return Readiness.of({
      check: sql`SELECT 1`.pipe(
        storage,
        Effect.asVoid,
        Effect.timeoutOrElse({
          duration: "2 seconds",
          orElse: () => Effect.fail(new StorageUnavailable({ message: "the database did not answer in time" }))
        })
      )
    })
  })
)
