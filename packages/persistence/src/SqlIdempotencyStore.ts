// The IdempotencyStore port in SQL: a stored response per principal, endpoint and key, and a transaction-level
// advisory lock on the same three as the claim — held while the request runs, and gone with its transaction,
// whether it commits, rolls back or its connection dies with the process.
import { type Claim, IdempotencyStore } from "@fatura/application"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { int, storage, text } from "./Columns.js"

/** The advisory lock space of idempotency claims (the two-key form; migrations use the one-key form). */
const lockClass = 0x69646d70 // "idmp"

export const layer = Layer.effect(
  IdempotencyStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return IdempotencyStore.of({
      claim: (scope, requestHash) =>
        Effect.gen(function* () {
          const [lock] = yield* sql`
            SELECT pg_try_advisory_xact_lock(
              ${lockClass}::int4,
              hashtext(${scope.principal}::text || ' ' || ${scope.endpoint}::text || ' ' || ${scope.key}::text)
            ) AS held`
          if (lock?.held !== true) return { _tag: "InProgress" } satisfies Claim
          // A statement of its own: its snapshot is taken after the lock, so it sees what the last holder committed.
          const [row] = yield* sql`
            SELECT request_hash, response_status, response_body FROM idempotency_keys
            WHERE principal = ${scope.principal} AND endpoint = ${scope.endpoint} AND key = ${scope.key}`
          if (row === undefined) return { _tag: "Claimed" } satisfies Claim
          if (text(row.request_hash) !== requestHash) return { _tag: "Conflict" } satisfies Claim
          return {
            _tag: "Replay",
            response: { status: int(row.response_status), body: text(row.response_body) }
          } satisfies Claim
        }).pipe(storage),

      complete: (scope, requestHash, response, now) =>
        sql`
          INSERT INTO idempotency_keys (principal, company_id, endpoint, key, request_hash, response_status,
                                        response_body, created_at)
          VALUES (${scope.principal}, ${scope.companyId}, ${scope.endpoint}, ${scope.key}, ${requestHash},
                  ${response.status}, ${response.body}, ${now}::timestamptz)`.pipe(Effect.asVoid, storage),

      // Oldest first by the index on `created_at`; SKIP LOCKED shares the rows out between workers purging at once.
      purge: (recordedBefore, limit) =>
        sql`
          WITH forgotten AS (
            DELETE FROM idempotency_keys
            WHERE (principal, endpoint, key) IN (
              SELECT principal, endpoint, key FROM idempotency_keys
              WHERE created_at < ${recordedBefore}::timestamptz
              ORDER BY created_at
              LIMIT ${limit}
              FOR UPDATE SKIP LOCKED)
            RETURNING 1)
          SELECT count(*)::int AS forgotten FROM forgotten`.pipe(
          Effect.map((rows) => int(rows[0]?.forgotten)),
          storage
        )
    })
  })
)
