// The BankPayoutRepository port in SQL (migration 0022): the attempts of each withdrawal a bank pays, by a reference
// from a sequence; the queue read by its partial index of queued attempts no remessa took yet.
import { type BankPayout, BankPayoutRepository, type PayoutForm } from "@fatura/application"
import { BankAccount, Timestamp } from "@fatura/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, Integer, Json } from "./ColumnSchemas.js"
import { storage } from "./Columns.js"

const Destination = Schema.Struct({
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

const PayoutRow = Schema.Struct({
  reference: Schema.String,
  withdrawal_id: Schema.String,
  attempt: Integer,
  form: Schema.Literals(["pix", "ted", "creditInAccount"]),
  amount: Integer,
  destination: Json(Destination),
  status: Schema.Literals(["queued", "accepted", "paid", "failed", "returned"]),
  remessa: Schema.NullOr(Schema.String),
  occurrences: Schema.String,
  end_to_end_id: Schema.NullOr(Schema.String),
  paid_on: Schema.NullOr(Schema.String),
  updated_at: Timestamp.Timestamp
})

const toPayout = (row: typeof PayoutRow.Type): BankPayout => ({
  reference: row.reference,
  withdrawalId: row.withdrawal_id,
  attempt: row.attempt,
  form: row.form,
  amount: row.amount,
  destination: row.destination,
  status: row.status,
  remessa: row.remessa,
  occurrences: row.occurrences === "" ? [] : row.occurrences.split(" "),
  endToEndId: row.end_to_end_id,
  paidOn: row.paid_on,
  updatedAt: row.updated_at
})

const decodeFirstPayout = decodeFirst(PayoutRow)
const decodePayouts = decodeRows(PayoutRow)
const columns = `reference, withdrawal_id, attempt, form, amount, destination, status, remessa, occurrences,
  end_to_end_id, to_char(paid_on, 'YYYY-MM-DD') AS paid_on, fatura_ts(updated_at) AS updated_at`

export const layer = Layer.effect(
  BankPayoutRepository,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const selected = sql.unsafe(columns)
    const first = Effect.flatMap(decodeFirstPayout)

    const latest = (withdrawalId: string) =>
      sql`
        SELECT ${selected} FROM bank_payouts WHERE withdrawal_id = ${withdrawalId}
        ORDER BY attempt DESC LIMIT 1`.pipe(first, Effect.map(Option.map(toPayout)))

    /** Attempt `attempt` of a withdrawal, queued under the next reference; nothing when it exists already. */
    const insert = (
      payout: { readonly withdrawalId: string; readonly form: PayoutForm; readonly amount: number },
      destination: unknown,
      attempt: number,
      at: string
    ) =>
      sql`
        INSERT INTO bank_payouts (reference, withdrawal_id, attempt, form, amount, destination, status, created_at,
          updated_at)
        VALUES ('WD' || lpad(nextval('bank_payout_reference')::text, 18, '0'), ${payout.withdrawalId}, ${attempt},
          ${payout.form}, ${payout.amount}, ${JSON.stringify(destination)}::jsonb, 'queued', ${at}::timestamptz,
          ${at}::timestamptz)
        ON CONFLICT (withdrawal_id, attempt) DO NOTHING`

    return BankPayoutRepository.of({
      enqueue: (payout, at) =>
        Effect.gen(function* () {
          const existing = yield* latest(payout.withdrawalId)
          if (Option.isSome(existing)) return existing.value
          yield* insert(payout, payout.destination, 1, at)
          return Option.getOrThrow(yield* latest(payout.withdrawalId))
        }).pipe(storage),

      latest: (withdrawalId) => latest(withdrawalId).pipe(storage),

      queued: (limit) =>
        sql`
          SELECT ${selected} FROM bank_payouts WHERE status = 'queued' AND remessa IS NULL
          ORDER BY created_at, reference LIMIT ${limit}`.pipe(
          Effect.flatMap(decodePayouts),
          Effect.map((rows) => rows.map(toPayout)),
          storage
        ),

      assign: (references, remessa, at) =>
        references.length === 0
          ? Effect.void
          : sql`
              UPDATE bank_payouts SET remessa = ${remessa}, updated_at = ${at}::timestamptz
              WHERE reference IN ${sql.in(references)}`.pipe(Effect.asVoid, storage),

      release: (remessa, at) =>
        sql`
          UPDATE bank_payouts SET remessa = NULL, updated_at = ${at}::timestamptz
          WHERE remessa = ${remessa} AND status = 'queued'
          RETURNING reference`.pipe(
          Effect.map((rows) => rows.length),
          storage
        ),

      findByReference: (reference) =>
        sql`SELECT ${selected} FROM bank_payouts WHERE reference = ${reference}`.pipe(
          first,
          Effect.map(Option.map(toPayout)),
          storage
        ),

      settle: (reference, change, at) =>
        sql`
          UPDATE bank_payouts
          SET status = ${change.status}, occurrences = ${change.occurrences.join(" ")},
              end_to_end_id = coalesce(${change.endToEndId ?? null}, end_to_end_id),
              paid_on = coalesce(${change.paidOn ?? null}::date, paid_on), updated_at = ${at}::timestamptz
          WHERE reference = ${reference}`.pipe(Effect.asVoid, storage),

      retry: (withdrawalId, form, at) =>
        Effect.gen(function* () {
          const previous = Option.getOrThrow(yield* latest(withdrawalId))
          yield* insert({ withdrawalId, form, amount: previous.amount }, previous.destination, previous.attempt + 1, at)
          return Option.getOrThrow(yield* latest(withdrawalId))
        }).pipe(storage)
    })
  })
)
