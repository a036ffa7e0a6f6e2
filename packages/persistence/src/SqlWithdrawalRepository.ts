// The WithdrawalRepository port in SQL (migration 0020): a withdrawal and its ledger entries in one statement; a
// company's list by (company, mode, created_at, id), with or without status; the sweep's claims by the partial indexes
// of pending withdrawals and of those due a look, skipping what another transaction holds.
import { WithdrawalRepository } from "@fatura/application"
import { BankAccount, Cents, Invoice, type Ledger, PaymentMethod, Timestamp, Withdrawal } from "@fatura/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRows, Integer, Json } from "./ColumnSchemas.js"
import { storage } from "./Columns.js"
import { CompanyIdColumn } from "./InvoiceRows.js"

const columns = `
  w.id, w.company_id, w.mode, w.amount, w.fee, w.status, w.sources, w.destination, w.rail, w.end_to_end_id,
  w.failure_reason, fatura_ts(w.created_at) AS created_at, fatura_ts(w.updated_at) AS updated_at,
  fatura_ts(w.sent_at) AS sent_at, fatura_ts(w.paid_at) AS paid_at`

const WithdrawalRow = Schema.Struct({
  id: Schema.String,
  company_id: CompanyIdColumn,
  mode: Invoice.Mode,
  amount: Integer,
  fee: Integer,
  status: Withdrawal.WithdrawalStatus,
  sources: Json(Schema.Array(Schema.Struct({ balance: PaymentMethod.BalanceKind, amount: Schema.Int }))),
  destination: Json(
    Schema.Struct({
      bank: Schema.Struct({
        code: Schema.String,
        name: Schema.String,
        agency: Schema.String,
        account: Schema.String,
        digit: Schema.String,
        type: BankAccount.BankType
      }),
      holderName: Schema.String,
      holderDocument: Schema.String
    })
  ),
  rail: Schema.NullOr(Schema.Literals(["pix", "ted"])),
  end_to_end_id: Schema.NullOr(Schema.String),
  failure_reason: Schema.NullOr(Schema.String),
  created_at: Timestamp.Timestamp,
  updated_at: Timestamp.Timestamp,
  sent_at: Schema.NullOr(Timestamp.Timestamp),
  paid_at: Schema.NullOr(Timestamp.Timestamp)
})

const toWithdrawal = (row: typeof WithdrawalRow.Type): Withdrawal.Withdrawal => ({
  id: row.id,
  companyId: row.company_id,
  mode: row.mode,
  amount: Cents.make(row.amount),
  fee: Cents.make(row.fee),
  status: row.status,
  sources: row.sources.map((source) => ({ balance: source.balance, amount: Cents.make(source.amount) })),
  destination: row.destination,
  rail: row.rail,
  endToEndId: row.end_to_end_id,
  failureReason: row.failure_reason,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  sentAt: row.sent_at,
  paidAt: row.paid_at
})

const decode = decodeRows(WithdrawalRow)
const withdrawalsOf = (rows: ReadonlyArray<unknown>) => Effect.map(decode(rows), (decoded) => decoded.map(toWithdrawal))

export const layer = Layer.effect(
  WithdrawalRepository,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const selected = sql.unsafe(columns)

    /** Inserts the entries of a withdrawal `id`, in their order, dated `at`; nothing when there are none. */
    const entries = (
      withdrawal: Pick<Withdrawal.Withdrawal, "id" | "companyId" | "mode">,
      movements: ReadonlyArray<Ledger.Entry>,
      at: Timestamp.Timestamp
    ) =>
      movements.length === 0
        ? []
        : [
            sql`ledger AS (
              INSERT INTO ledger_entries (company_id, withdrawal_id, mode, type, direction, amount, balance, bucket,
                created_at)
              SELECT ${withdrawal.companyId}::bigint, ${withdrawal.id}, ${withdrawal.mode}, e.type, e.direction,
                e.amount, e.balance, e.bucket, ${at}::timestamptz
              FROM (VALUES ${sql.csv(
                movements.map(
                  (entry, n) =>
                    sql`(${n}::int, ${entry.type}, ${entry.direction}, ${entry.amount}::bigint, ${entry.balance},
                      ${entry.bucket})`
                )
              )}) AS e (n, type, direction, amount, balance, bucket)
              ORDER BY e.n
              RETURNING id)`
          ]

    const byId = (id: string) =>
      sql`SELECT ${selected} FROM withdrawals w WHERE w.id = ${id}`.pipe(
        Effect.flatMap(withdrawalsOf),
        Effect.map((found) => Option.fromNullishOr(found[0]))
      )

    return WithdrawalRepository.of({
      insert: (withdrawal, movements) =>
        sql`
          WITH ${sql.csv([
            sql`inserted AS (
              INSERT INTO withdrawals (id, company_id, mode, amount, fee, status, sources, destination, created_at,
                updated_at)
              VALUES (${withdrawal.id}, ${withdrawal.companyId}, ${withdrawal.mode}, ${withdrawal.amount},
                ${withdrawal.fee}, ${withdrawal.status}, ${JSON.stringify(withdrawal.sources)}::jsonb,
                ${JSON.stringify(withdrawal.destination)}::jsonb, ${withdrawal.createdAt}::timestamptz,
                ${withdrawal.updatedAt}::timestamptz)
              RETURNING id)`,
            ...entries(withdrawal, movements, withdrawal.createdAt)
          ])}
          SELECT id FROM inserted`.pipe(Effect.asVoid, storage),

      find: (companyId, mode, id) =>
        sql`SELECT ${selected} FROM withdrawals w WHERE w.id = ${id} AND w.company_id = ${companyId} AND w.mode = ${mode}`.pipe(
          Effect.flatMap(withdrawalsOf),
          Effect.map((found) => Option.fromNullishOr(found[0])),
          storage
        ),

      // Newest first by creation time, then id, written as a plain bound plus a tie-break as the invoice list is.
      list: (filter) => {
        const cursorCreatedAt = sql`(SELECT created_at FROM withdrawals WHERE id = ${filter.afterId})`
        const conditions = [
          sql`w.company_id = ${filter.companyId}`,
          sql`w.mode = ${filter.mode}`,
          ...(filter.afterId === null
            ? []
            : [
                sql`w.created_at <= ${cursorCreatedAt}`,
                sql`(w.created_at < ${cursorCreatedAt} OR w.id < ${filter.afterId})`
              ]),
          ...(filter.status === null ? [] : [sql`w.status = ${filter.status}`])
        ]
        return sql`
          SELECT ${selected} FROM withdrawals w WHERE ${sql.and(conditions)}
          ORDER BY w.created_at DESC, w.id DESC
          LIMIT ${filter.limit + 1}`.pipe(Effect.flatMap(withdrawalsOf), storage)
      },

      lock: (id) =>
        sql`SELECT id FROM withdrawals WHERE id = ${id} FOR UPDATE`.pipe(
          Effect.flatMap((rows) => (rows.length === 0 ? Effect.succeedNone : byId(id))),
          storage
        ),

      lockPending: (limit) =>
        sql`
          SELECT ${selected} FROM withdrawals w WHERE w.status = 'pending'
          ORDER BY w.created_at, w.id
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED`.pipe(Effect.flatMap(withdrawalsOf), storage),

      claimDue: (now, leaseUntil, limit) =>
        sql`
          WITH due AS (
            SELECT id FROM withdrawals
            WHERE next_check_at IS NOT NULL AND next_check_at <= ${now}::timestamptz
            ORDER BY next_check_at
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED
          ), claimed AS (
            UPDATE withdrawals SET next_check_at = ${leaseUntil}::timestamptz
            WHERE id IN (SELECT id FROM due)
            RETURNING id
          )
          SELECT ${selected} FROM withdrawals w WHERE w.id IN (SELECT id FROM claimed)
          ORDER BY w.created_at, w.id`.pipe(Effect.flatMap(withdrawalsOf), storage),

      apply: (withdrawal, change) =>
        Effect.gen(function* () {
          yield* sql`
            WITH ${sql.csv([
              sql`moved AS (
                UPDATE withdrawals
                SET status = ${change.status}, updated_at = ${change.at}::timestamptz,
                    next_check_at = ${change.nextCheckAt}::timestamptz,
                    sent_at = coalesce(${change.sentAt ?? null}::timestamptz, sent_at),
                    rail = coalesce(${change.rail ?? null}, rail),
                    end_to_end_id = coalesce(${change.endToEndId ?? null}, end_to_end_id),
                    paid_at = coalesce(${change.paidAt ?? null}::timestamptz, paid_at),
                    failure_reason = coalesce(${change.failureReason ?? null}, failure_reason)
                WHERE id = ${withdrawal.id}
                RETURNING id)`,
              ...entries(withdrawal, change.movements, change.at)
            ])}
            SELECT id FROM moved`
          return Option.getOrThrow(yield* byId(withdrawal.id))
        }).pipe(storage)
    })
  })
)
