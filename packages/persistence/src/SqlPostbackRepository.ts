// The PostbackRepository port in SQL. Claims take rows with FOR UPDATE SKIP LOCKED and hold them by a lease,
// so that any number of workers share the work and an attempt whose worker died is taken up again; purges of old
// events skip what another purge holds in the same way.
import { type ClaimedDelivery, type Delivery, PostbackRepository, type StoredEvent } from "@fatura/application"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { int, json, nullableInt, nullableText, nullableTimestamp, storage, text, timestamp } from "./Columns.js"

const toDelivery = (row: Record<string, unknown>): Delivery => ({
  id: int(row.id),
  eventId: text(row.event_id),
  endpointId: nullableText(row.endpoint_id),
  url: text(row.url),
  status: text(row.status) as Delivery["status"],
  attempts: int(row.attempts),
  lastStatusCode: nullableInt(row.last_status_code),
  lastError: nullableText(row.last_error),
  nextAttemptAt: nullableTimestamp(row.next_attempt_at),
  createdAt: timestamp(row.created_at),
  updatedAt: timestamp(row.updated_at)
})

const toEvent = (row: Record<string, unknown>): StoredEvent => ({
  id: text(row.id),
  type: text(row.type),
  createdAt: timestamp(row.created_at),
  livemode: row.livemode === true,
  data: json(row.data),
  reason: nullableText(row.reason)
})

export const layer = Layer.effect(
  PostbackRepository,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const deliveryColumns = sql.unsafe(`
      d.id, d.event_id, d.endpoint_id, d.url, d.status, d.attempts, d.last_status_code, d.last_error,
      fatura_ts(d.next_attempt_at) AS next_attempt_at, fatura_ts(d.created_at) AS created_at,
      fatura_ts(d.updated_at) AS updated_at`)

    return PostbackRepository.of({
      claimDue: ({ now, leaseUntil, worker, limit }) =>
        sql`
          UPDATE deliveries d
          SET attempts = d.attempts + 1, lease_until = ${leaseUntil}::timestamptz, leased_by = ${worker},
              updated_at = ${now}::timestamptz
          FROM events e
          WHERE d.id IN (
              SELECT id FROM deliveries
              WHERE status = 'pending' AND next_attempt_at <= ${now}::timestamptz
                AND (lease_until IS NULL OR lease_until < ${now}::timestamptz)
              ORDER BY next_attempt_at, id
              LIMIT ${limit}
              FOR UPDATE SKIP LOCKED)
            AND e.id = d.event_id
          RETURNING d.id, d.attempts, d.url, e.id AS event_id, e.type AS event_type, e.livemode,
            CASE WHEN e.reason IS NULL
              THEN json_build_object('id', e.id, 'type', e.type, 'created_at', fatura_ts(e.created_at),
                                     'livemode', e.livemode, 'data', e.data)
              ELSE json_build_object('id', e.id, 'type', e.type, 'created_at', fatura_ts(e.created_at),
                                     'livemode', e.livemode, 'data', e.data, 'reason', e.reason)
            END::text AS body,
            (SELECT coalesce(json_agg(s.secret ORDER BY s.id DESC), '[]')::text
             FROM webhook_secrets s
             WHERE s.company_id = d.company_id AND s.mode = CASE WHEN e.livemode THEN 'live' ELSE 'test' END
               AND (s.signs_until IS NULL OR s.signs_until > ${now}::timestamptz)) AS secrets`.pipe(
          Effect.map((rows) =>
            rows.map(
              (row): ClaimedDelivery => ({
                id: int(row.id),
                attempt: int(row.attempts),
                url: text(row.url),
                livemode: row.livemode === true,
                eventId: text(row.event_id),
                eventType: text(row.event_type),
                body: text(row.body),
                secrets: json<ReadonlyArray<string>>(row.secrets)
              })
            )
          ),
          storage
        ),

      recordAttempt: (attempt) =>
        Effect.gen(function* () {
          yield* sql`
            INSERT INTO delivery_attempts (delivery_id, attempt, worker, started_at, finished_at, status_code, error,
                                           duration_ms, succeeded)
            VALUES (${attempt.deliveryId}, ${attempt.attempt}, ${attempt.worker}, ${attempt.startedAt}::timestamptz,
                    ${attempt.finishedAt}::timestamptz, ${attempt.statusCode}, ${attempt.error}, ${attempt.durationMs},
                    ${attempt.outcome._tag === "Succeeded"})`
          const outcome = attempt.outcome
          const status = outcome._tag === "Succeeded" ? "succeeded" : outcome._tag === "Failed" ? "failed" : "pending"
          const next = outcome._tag === "Retry" ? outcome.nextAttemptAt : null
          // Only the holder of the current lease settles the delivery: a worker that lost its lease (it was too
          // slow, and another took the delivery over) leaves its late result in the attempts alone.
          yield* sql`
            UPDATE deliveries
            SET status = ${status}, last_status_code = ${attempt.statusCode}, last_error = ${attempt.error},
                next_attempt_at = ${next}::timestamptz, lease_until = NULL, leased_by = NULL,
                updated_at = ${attempt.finishedAt}::timestamptz
            WHERE id = ${attempt.deliveryId} AND attempts = ${attempt.attempt} AND leased_by = ${attempt.worker}`
        }).pipe(sql.withTransaction, storage),

      listDeliveries: (companyId, filter) =>
        ("eventId" in filter
          ? sql`SELECT ${deliveryColumns} FROM deliveries d
                WHERE d.company_id = ${companyId} AND d.event_id = ${filter.eventId} ORDER BY d.id`
          : sql`SELECT ${deliveryColumns} FROM deliveries d JOIN events e ON e.id = d.event_id
                WHERE d.company_id = ${companyId} AND e.invoice_id = ${filter.invoiceId} ORDER BY d.id`
        ).pipe(
          Effect.map((rows) => rows.map(toDelivery)),
          storage
        ),

      retry: (companyId, mode, deliveryId, now) =>
        sql`
          UPDATE deliveries d
          SET status = 'pending', next_attempt_at = ${now}::timestamptz, updated_at = ${now}::timestamptz
          FROM events e
          WHERE d.id = ${deliveryId} AND d.company_id = ${companyId}
            AND e.id = d.event_id AND e.livemode = ${mode === "live"}
          RETURNING d.id`.pipe(
          Effect.map((rows) => rows.length > 0),
          storage
        ),

      listEvents: (filter) => {
        const conditions = [
          sql`e.company_id = ${filter.companyId}`,
          sql`e.livemode = ${filter.livemode}`,
          ...(filter.before === null ? [] : [sql`e.seq < ${filter.before}`]),
          ...(filter.type === null ? [] : [sql`e.type = ${filter.type}`]),
          ...(filter.invoiceId === null ? [] : [sql`e.invoice_id = ${filter.invoiceId}`])
        ]
        return sql`
          SELECT e.id, e.type, fatura_ts(e.created_at) AS created_at, e.livemode, e.data, e.reason FROM events e
          WHERE ${sql.and(conditions)}
          ORDER BY e.seq DESC
          LIMIT ${filter.limit + 1}`.pipe(
          Effect.map((rows) => rows.map(toEvent)),
          storage
        )
      },

      eventPosition: (companyId, livemode, eventId) =>
        sql`SELECT seq FROM events WHERE id = ${eventId} AND company_id = ${companyId} AND livemode = ${livemode}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), (row) => int(row.seq))),
          storage
        ),

      purgeEvents: (recordedBefore, limit) =>
        Effect.gen(function* () {
          // The oldest events past retention that no delivery waits on, by the index on `created_at`, locked; those
          // another purge holds are skipped.
          const candidates = yield* sql`
            SELECT e.id FROM events e
            WHERE e.created_at < ${recordedBefore}::timestamptz
              AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id AND d.status = 'pending')
            ORDER BY e.created_at
            LIMIT ${limit}
            FOR UPDATE OF e SKIP LOCKED`
          if (candidates.length === 0) return 0
          const ids = candidates.map((row) => text(row.id))
          // Their deliveries, locked and read as they are now: a retry by hand that made one pending since the query
          // above keeps its event; one under way waits for this purge, then finds its delivery gone.
          const deliveries = yield* sql`
            SELECT event_id, status FROM deliveries WHERE event_id IN ${sql.in(ids)} ORDER BY id FOR UPDATE`
          const awaited = new Set(deliveries.filter((row) => row.status === "pending").map((row) => text(row.event_id)))
          const purged = ids.filter((id) => !awaited.has(id))
          if (purged.length === 0) return 0
          yield* sql`
            DELETE FROM delivery_attempts
            WHERE delivery_id IN (SELECT id FROM deliveries WHERE event_id IN ${sql.in(purged)})`
          yield* sql`DELETE FROM deliveries WHERE event_id IN ${sql.in(purged)}`
          yield* sql`DELETE FROM events WHERE id IN ${sql.in(purged)}`
          return purged.length
        }).pipe(storage),

      createWebhookSecret: (companyId, mode, secret, now) =>
        sql`
          INSERT INTO webhook_secrets (company_id, mode, secret, created_at)
          VALUES (${companyId}, ${mode}, ${secret}, ${now}::timestamptz)
          ON CONFLICT (company_id, mode) WHERE signs_until IS NULL DO NOTHING
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          storage
        ),

      rollWebhookSecret: (companyId, mode, secret, now, overlap) =>
        Effect.gen(function* () {
          // Rolls of one company wait for each other, so that each supersedes the one before it and only one secret
          // is ever current. NO KEY UPDATE leaves the inserts that reference the company (its invoices) unblocked.
          yield* sql`SELECT id FROM companies WHERE id = ${companyId} FOR NO KEY UPDATE`
          // Secrets that no longer sign are of no use to anyone: they go.
          yield* sql`
            DELETE FROM webhook_secrets
            WHERE company_id = ${companyId} AND mode = ${mode} AND signs_until <= ${now}::timestamptz`
          yield* sql`
            UPDATE webhook_secrets SET signs_until = ${overlap.until}::timestamptz
            WHERE company_id = ${companyId} AND mode = ${mode} AND signs_until IS NULL`
          // Past the cap, the oldest rolled secrets stop signing now.
          yield* sql`
            DELETE FROM webhook_secrets
            WHERE company_id = ${companyId} AND mode = ${mode} AND signs_until IS NOT NULL
              AND id NOT IN (
                SELECT id FROM webhook_secrets
                WHERE company_id = ${companyId} AND mode = ${mode} AND signs_until IS NOT NULL
                ORDER BY id DESC
                LIMIT ${overlap.rolledAtMost})`
          yield* sql`
            INSERT INTO webhook_secrets (company_id, mode, secret, created_at)
            VALUES (${companyId}, ${mode}, ${secret}, ${now}::timestamptz)`
        }).pipe(sql.withTransaction, storage)
    })
  })
)
