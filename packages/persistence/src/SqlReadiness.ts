// The Readiness port: one trivial query, bounded in time so a hung database reads as "not ready"; and this process's
// connections as Postgres sees them (its pool connects under an application name of its own).
import { type ConnectionUse, Readiness, StorageUnavailable } from "@fatura/application"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { int, storage } from "./Columns.js"

/** How this process connects: a pool of Postgres connections under `applicationName`, or the embedded database. */
export type Connections =
  | { readonly _tag: "Pool"; readonly applicationName: string; readonly max: number }
  | { readonly _tag: "Embedded" }

export const layer = (connections: Connections) =>
  Layer.effect(
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
        ),
        connections:
          connections._tag === "Embedded"
            ? Effect.succeed<ConnectionUse>({ open: 1, active: null, max: 1 })
            : sql`
                SELECT count(*) AS open, count(*) FILTER (WHERE state = 'active' AND pid <> pg_backend_pid()) AS active
                FROM pg_stat_activity WHERE application_name = ${connections.applicationName}`.pipe(
                Effect.map((rows) => ({
                  open: int(rows[0]!.open),
                  active: int(rows[0]!.active),
                  max: connections.max
                })),
                storage
              )
      })
    })
  )
