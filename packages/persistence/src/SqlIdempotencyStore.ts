// The IdempotencyStore port in SQL: a stored response per principal, endpoint and key. A request that runs in one
// transaction claims its key with a transaction-level advisory lock on the same three — held while it runs, and gone
// with its transaction, whether it commits, rolls back or its connection dies with the process. A request that calls
// providers, and so runs outside any transaction, holds a lease instead: the row without its response yet.
import { type Claim, type IdempotencyScope, IdempotencyStore, type Lease, Secrets } from "@fatura/application"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { int, nullableText, storage, text } from "./Columns.js"

/** The row of `deployment_secrets` that holds `IdempotencyStore.fingerprintKey`. */
const fingerprintKeyName = "idempotency_fingerprint"

/** The advisory lock space of idempotency claims (the two-key form; migrations use the one-key form). */
const lockClass = 0x69646d70 // "idmp"

export const layer = Layer.effect(
  IdempotencyStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /** The key's row while `token`'s lease holds it: what every write of a leased request is fenced by. */
    const heldBy = (scope: IdempotencyScope, token: string) =>
      sql`principal = ${scope.principal} AND endpoint = ${scope.endpoint} AND key = ${scope.key}
          AND lease_token = ${token} AND response_status IS NULL`

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
          if (row.response_status === null) return { _tag: "InProgress" } satisfies Claim
          return {
            _tag: "Replay",
            response: { status: int(row.response_status), body: text(row.response_body) }
          } satisfies Claim
        }).pipe(storage),

      // One statement takes a free key or a lease run out (keeping the recovery point its holder left); only when it
      // takes nothing is the row read, to tell a replay, a conflict or a request still running.
      lease: (scope, requestHash, now, leaseUntil) =>
        Effect.gen(function* () {
          const token = Secrets.randomBase62(22)
          const [taken] = yield* sql`
            INSERT INTO idempotency_keys (principal, company_id, endpoint, key, request_hash, lease_token, lease_until,
                                          created_at)
            VALUES (${scope.principal}, ${scope.companyId}, ${scope.endpoint}, ${scope.key}, ${requestHash}, ${token},
                    ${leaseUntil}::timestamptz, ${now}::timestamptz)
            ON CONFLICT (principal, endpoint, key) DO UPDATE
              SET lease_token = excluded.lease_token, lease_until = excluded.lease_until
              WHERE idempotency_keys.response_status IS NULL
                AND idempotency_keys.request_hash = excluded.request_hash
                AND idempotency_keys.lease_until <= ${now}::timestamptz
            RETURNING recovery_point`
          if (taken !== undefined) {
            return { _tag: "Leased", token, recoveryPoint: nullableText(taken.recovery_point) } satisfies Lease
          }
          const [row] = yield* sql`
            SELECT request_hash, response_status, response_body FROM idempotency_keys
            WHERE principal = ${scope.principal} AND endpoint = ${scope.endpoint} AND key = ${scope.key}`
          if (row === undefined || text(row.request_hash) !== requestHash) return { _tag: "Conflict" } satisfies Lease
          if (row.response_status === null) return { _tag: "InProgress" } satisfies Lease
          return {
            _tag: "Replay",
            response: { status: int(row.response_status), body: text(row.response_body) }
          } satisfies Lease
        }).pipe(storage),

      checkpoint: (scope, token, point) =>
        sql`
          UPDATE idempotency_keys SET recovery_point = ${point}
          WHERE ${heldBy(scope, token)}
          RETURNING 1`.pipe(
          Effect.map((rows) => rows.length === 1),
          storage
        ),

      finish: (scope, token, response) =>
        sql`
          UPDATE idempotency_keys
          SET response_status = ${response.status}, response_body = ${response.body}, lease_token = NULL,
              lease_until = NULL
          WHERE ${heldBy(scope, token)}
          RETURNING 1`.pipe(
          Effect.map((rows) => rows.length === 1),
          storage
        ),

      release: (scope, token, now) =>
        Effect.gen(function* () {
          yield* sql`
            DELETE FROM idempotency_keys
            WHERE ${heldBy(scope, token)} AND recovery_point IS NULL`
          yield* sql`
            UPDATE idempotency_keys SET lease_until = ${now}::timestamptz
            WHERE ${heldBy(scope, token)}`
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
        ),

      // Two statements, not one: a statement that waited on another process's insert still reads as of its start.
      fingerprintKey: (candidate) =>
        Effect.gen(function* () {
          yield* sql`
            INSERT INTO deployment_secrets (name, value) VALUES (${fingerprintKeyName}, ${candidate})
            ON CONFLICT (name) DO NOTHING`
          const [row] = yield* sql`SELECT value FROM deployment_secrets WHERE name = ${fingerprintKeyName}`
          return text(row?.value)
        }).pipe(storage)
    })
  })
)
