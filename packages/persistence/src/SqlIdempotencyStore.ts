// The IdempotencyStore port in SQL: one row per company, endpoint and key; the primary key makes exactly one
// of any number of concurrent first requests the holder.
import { type Claim, IdempotencyStore } from "@fatura/application"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { int, storage, text } from "./Columns.js"

export const layer = Layer.effect(
  IdempotencyStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return IdempotencyStore.of({
      claim: (scope, requestHash, now, leaseUntil) =>
        Effect.gen(function* () {
          const claimed = yield* sql`
            INSERT INTO idempotency_keys AS k (company_id, endpoint, key, request_hash, state, lease_until, created_at)
            VALUES (${scope.companyId}, ${scope.endpoint}, ${scope.key}, ${requestHash}, 'in_progress',
                    ${leaseUntil}::timestamptz, ${now}::timestamptz)
            ON CONFLICT (company_id, endpoint, key) DO UPDATE
              SET request_hash = excluded.request_hash, lease_until = excluded.lease_until,
                  created_at = excluded.created_at
              WHERE k.state = 'in_progress' AND k.lease_until < excluded.created_at
            RETURNING 1 AS claimed`
          if (claimed.length > 0) return { _tag: "Claimed" } satisfies Claim
          const rows = yield* sql`
            SELECT request_hash, state, response_status, response_body FROM idempotency_keys
            WHERE company_id = ${scope.companyId} AND endpoint = ${scope.endpoint} AND key = ${scope.key}`
          const row = rows[0]
          // Released between our two statements: the next attempt will claim it.
          if (row === undefined) return { _tag: "InProgress" } satisfies Claim
          if (text(row.request_hash) !== requestHash) return { _tag: "Conflict" } satisfies Claim
          if (row.state !== "completed") return { _tag: "InProgress" } satisfies Claim
          return {
            _tag: "Replay",
            response: { status: int(row.response_status), body: text(row.response_body) }
          } satisfies Claim
        }).pipe(storage),

      complete: (scope, response) =>
        sql`
          UPDATE idempotency_keys
          SET state = 'completed', response_status = ${response.status}, response_body = ${response.body}
          WHERE company_id = ${scope.companyId} AND endpoint = ${scope.endpoint} AND key = ${scope.key}`.pipe(
          Effect.asVoid,
          storage
        ),

      release: (scope) =>
        sql`
          DELETE FROM idempotency_keys
          WHERE company_id = ${scope.companyId} AND endpoint = ${scope.endpoint} AND key = ${scope.key}
            AND state = 'in_progress'`.pipe(Effect.asVoid, storage)
    })
  })
)
