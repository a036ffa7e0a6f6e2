// The LedgerEntryRepository port in SQL: a company's entries of one mode by the index on (company, mode, id), newest
// first, each with its invoice's secureId or its withdrawal's id.
import { type BalanceOperation, LedgerEntryRepository } from "@fatura/application"
import { Invoice, Ledger, PaymentMethod, Timestamp } from "@fatura/domain"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRows, Integer } from "./ColumnSchemas.js"
import { storage } from "./Columns.js"
import { CentsColumn } from "./InvoiceRows.js"

const OperationRow = Schema.Struct({
  id: Integer,
  type: Ledger.EntryType,
  direction: Ledger.Direction,
  amount: CentsColumn,
  balance: PaymentMethod.BalanceKind,
  bucket: Ledger.Bucket,
  invoice_id: Schema.NullOr(Invoice.SecureId),
  withdrawal_id: Schema.NullOr(Schema.String),
  created_at: Timestamp.Timestamp
})

const toOperation = (row: typeof OperationRow.Type): BalanceOperation => ({
  id: row.id,
  type: row.type,
  direction: row.direction,
  amount: row.amount,
  balance: row.balance,
  bucket: row.bucket,
  invoiceId: row.invoice_id,
  withdrawalId: row.withdrawal_id,
  createdAt: row.created_at
})

const decodeOperations = decodeRows(OperationRow)

export const layer = Layer.effect(
  LedgerEntryRepository,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    return LedgerEntryRepository.of({
      operations: (filter) => {
        const conditions = [
          sql`l.company_id = ${filter.companyId}`,
          sql`l.mode = ${filter.mode}`,
          ...(filter.beforeId === null ? [] : [sql`l.id < ${filter.beforeId}`]),
          ...(filter.createdGte === null ? [] : [sql`l.created_at >= ${filter.createdGte}::timestamptz`]),
          ...(filter.createdLte === null ? [] : [sql`l.created_at <= ${filter.createdLte}::timestamptz`]),
          ...(filter.balance === null ? [] : [sql`l.balance = ${filter.balance}`]),
          ...(filter.type === null ? [] : [sql`l.type = ${filter.type}`])
        ]
        return sql`
          SELECT l.id, l.type, l.direction, l.amount, l.balance, l.bucket, i.secure_id AS invoice_id, l.withdrawal_id,
                 fatura_ts(l.created_at) AS created_at
          FROM ledger_entries l LEFT JOIN invoices i ON i.id = l.invoice_id
          WHERE ${sql.and(conditions)}
          ORDER BY l.id DESC
          LIMIT ${filter.limit + 1}`.pipe(
          Effect.flatMap(decodeOperations),
          Effect.map((rows) => rows.map(toOperation)),
          storage
        )
      },

      hasOperation: (companyId, mode, id) =>
        sql`SELECT 1 AS found FROM ledger_entries WHERE id = ${id} AND company_id = ${companyId} AND mode = ${mode}`.pipe(
          Effect.map((rows) => rows.length > 0),
          storage
        )
    })
  })
)
