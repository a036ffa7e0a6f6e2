// The InvoiceRepository port in SQL. An invoice is read with its client and timeline in one round trip.
import { type InvoiceReference, InvoiceRepository, type NewInvoice } from "@fatura/application"
import type { Company, Invoice } from "@fatura/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeOne, decodeRows, Integer } from "./ColumnSchemas.js"
import { storage } from "./Columns.js"
import * as InvoiceHistory from "./InvoiceHistory.js"
import { CompanyIdColumn, InvoiceIdColumn } from "./InvoiceRows.js"
import * as InvoiceStatements from "./InvoiceStatements.js"
import { companyColumns, toCompany, toTotals } from "./SqlCompanyRepository.js"
import * as Statements from "./Statements.js"

const InvoiceIdRow = Schema.Struct({ id: InvoiceIdColumn })
const decodeFirstId = decodeFirst(InvoiceIdRow)
const decodeIds = decodeRows(InvoiceIdRow)
const decodeDue = decodeRows(Schema.Struct({ id: InvoiceIdColumn, company_id: CompanyIdColumn }))
const decodeNumber = decodeOne(Schema.Struct({ n: Integer }))

export const layer = Layer.effect(
  InvoiceRepository,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const { selectInvoice, findById, writeHistory } = InvoiceStatements.make(sql)
    const companyLockColumns = companyColumns(sql, "c")
    const byReference = (companyId: Company.CompanyId, mode: Invoice.Mode, reference: InvoiceReference) =>
      reference._tag === "Id"
        ? sql`i.id = ${reference.id} AND i.company_id = ${companyId} AND i.mode = ${mode}`
        : sql`i.secure_id = ${reference.secureId}::uuid AND i.company_id = ${companyId} AND i.mode = ${mode}`

    return InvoiceRepository.of({
      nextOurNumber: sql`SELECT nextval('boleto_our_number') AS n`.pipe(
        Effect.flatMap(decodeNumber),
        Effect.map((row) => String(row.n).padStart(11, "0")),
        storage
      ),

      insert: (invoice: NewInvoice, client, cardAssociate, timeline, { movements, receivables }) =>
        Effect.gen(function* () {
          const boleto = invoice.boleto
          // The history writer's insert: the invoice with its timeline, ledger entries and receivables, in one
          // statement.
          const statement = Statements.insertInvoice(timeline.length, movements.length, receivables.length)
          const inserted = yield* sql.unsafe(statement, [
            invoice.secureId,
            invoice.companyId,
            client.id,
            invoice.mode,
            invoice.method,
            invoice.status,
            invoice.amount,
            invoice.installments,
            invoice.refundedAmount,
            invoice.refusedReason,
            invoice.postbackUrl,
            invoice.traceable,
            invoice.ip,
            invoice.metadata === null ? null : JSON.stringify(invoice.metadata),
            invoice.externalRef,
            JSON.stringify(invoice.items),
            JSON.stringify(invoice.payer),
            invoice.tokenCheckout,
            JSON.stringify(invoice.fee),
            invoice.pix?.qrCode ?? null,
            invoice.pix?.txid ?? null,
            invoice.pix?.expiresAt ?? null,
            boleto?.barcode ?? null,
            boleto?.digitableLine ?? null,
            boleto?.dueDate ?? null,
            boleto?.url ?? null,
            boleto?.bankCode ?? null,
            boleto?.ourNumber ?? null,
            invoice.card === null ? null : JSON.stringify(invoice.card),
            cardAssociate?.id ?? null,
            invoice.createdAt,
            invoice.updatedAt,
            invoice.paidAt,
            ...timeline.flatMap((entry) => [entry.status, entry.event]),
            ...movements.flatMap((movement) => [
              movement.type,
              movement.direction,
              movement.amount,
              movement.balance,
              movement.bucket
            ]),
            ...receivables.flatMap((receivable) => [
              receivable.installment,
              receivable.amount,
              receivable.fee,
              receivable.netAmount,
              receivable.balance,
              receivable.status,
              receivable.paymentDate,
              receivable.originalPaymentDate
            ])
          ])
          const written = yield* InvoiceStatements.writtenOf(
            { timeline, movements, receivables, refund: null },
            invoice.createdAt
          )(inserted)
          return {
            ...invoice,
            id: written.id,
            client,
            cardAssociate,
            timeline: timeline.map((entry) => ({ ...entry, createdAt: invoice.createdAt, detail: null })),
            movements: written.movements,
            refunds: []
          } satisfies Invoice.Invoice
        }).pipe(storage),

      find: (companyId, mode, reference) =>
        sql`${selectInvoice} WHERE ${byReference(companyId, mode, reference)}`.pipe(
          Effect.flatMap(InvoiceStatements.firstInvoice),
          storage
        ),

      findWithCompany: (companyId, mode, reference, now) =>
        (reference._tag === "Id"
          ? sql.unsafe<Record<string, unknown>>(Statements.invoiceWithCompanyById, [now, reference.id, companyId, mode])
          : sql.unsafe<Record<string, unknown>>(Statements.invoiceWithCompanyBySecureId, [
              now,
              reference.secureId,
              companyId,
              mode
            ])
        ).pipe(
          Effect.flatMap(([row]) =>
            row === undefined
              ? Effect.succeedNone
              : Effect.map(InvoiceStatements.invoiceOf(row), (invoice) =>
                  Option.some({ invoice, company: toCompany(row, "co_"), totals: toTotals(row) })
                )
          ),
          storage
        ),

      lock: (companyId, mode, reference) =>
        sql`SELECT i.id FROM invoices i WHERE ${byReference(companyId, mode, reference)} FOR UPDATE`.pipe(
          Effect.flatMap(decodeFirstId),
          Effect.flatMap((row) => (Option.isNone(row) ? Effect.succeedNone : findById(row.value.id))),
          storage
        ),

      // NO KEY UPDATE excludes the other moves of the company and updates of its row, but not the KEY SHARE lock
      // that an insert referring to the company takes for its foreign key: a new invoice or an event never queues
      // behind a money move, and a transaction that inserted such a row before asking for this lock cannot
      // deadlock with another one doing the same.
      lockCompanyLedger: (companyId) =>
        sql`SELECT ${companyLockColumns} FROM companies c WHERE c.id = ${companyId} FOR NO KEY UPDATE`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), (row) => toCompany(row))),
          storage
        ),

      applyTransition: (invoice, transition) =>
        writeHistory(
          invoice,
          sql`
            UPDATE invoices
            SET status = ${transition.status}, updated_at = ${transition.at}::timestamptz,
                paid_at = ${transition.paidAt}::timestamptz, refunded_amount = ${transition.refundedAmount},
                pix_end_to_end_id = coalesce(${transition.pixEndToEndId ?? null}, pix_end_to_end_id)
            WHERE id = ${invoice.id}
            RETURNING id`,
          {
            timeline: [transition],
            movements: transition.movements,
            receivables: transition.receivables,
            refund: transition.refund
          },
          transition.at
        ).pipe(
          Effect.map((written) => InvoiceHistory.afterTransition(invoice, transition, written)),
          storage
        ),

      settleCardPayment: (invoice, settlement) =>
        writeHistory(
          invoice,
          sql`
            UPDATE invoices
            SET status = ${settlement.status}, refused_reason = ${settlement.refusedReason},
                paid_at = ${settlement.status === "paid" ? settlement.at : null}::timestamptz,
                installments = ${settlement.installments}, fee = ${JSON.stringify(settlement.fee)}::jsonb,
                card = ${JSON.stringify(settlement.card)}::jsonb, card_reference_id = ${settlement.cardAssociate.id},
                updated_at = ${settlement.at}::timestamptz
            WHERE id = ${invoice.id}
            RETURNING id`,
          {
            timeline: [settlement],
            movements: settlement.movements,
            receivables: settlement.receivables,
            refund: null
          },
          settlement.at
        ).pipe(
          Effect.map((written) => InvoiceHistory.afterCardSettlement(invoice, settlement, written)),
          storage
        ),

      // Newest first by creation time, then id: each filter has an index in that order (migration 0011), so a page
      // reads its own rows whatever the size of the company's history. The cursor is written as a plain bound on
      // created_at plus a tie-break, not as a row comparison, so that the index starts its walk from the tighter of
      // it and `created_lte`; a row comparison would always be taken first.
      list: (filter) => {
        const cursorCreatedAt = sql`(SELECT created_at FROM invoices WHERE id = ${filter.beforeId})`
        const conditions = [
          sql`i.company_id = ${filter.companyId}`,
          sql`i.mode = ${filter.mode}`,
          ...(filter.beforeId === null
            ? []
            : [
                sql`i.created_at <= ${cursorCreatedAt}`,
                sql`(i.created_at < ${cursorCreatedAt} OR i.id < ${filter.beforeId})`
              ]),
          ...(filter.status === null ? [] : [sql`i.status = ${filter.status}`]),
          ...(filter.method === null ? [] : [sql`i.method = ${filter.method}`]),
          ...(filter.createdGte === null ? [] : [sql`i.created_at >= ${filter.createdGte}::timestamptz`]),
          ...(filter.createdLte === null ? [] : [sql`i.created_at <= ${filter.createdLte}::timestamptz`]),
          ...(filter.externalRef === null ? [] : [sql`i.external_ref = ${filter.externalRef}`])
        ]
        return sql`
          ${selectInvoice} WHERE ${sql.and(conditions)}
          ORDER BY i.created_at DESC, i.id DESC
          LIMIT ${filter.limit + 1}`.pipe(Effect.flatMap(InvoiceStatements.everyInvoice), storage)
      },

      findDueForExpiry: (now, today, limit) =>
        sql`
          SELECT id, company_id FROM invoices
          WHERE status = 'pending'
            AND ((method = 'pix' AND pix_expires_at <= ${now}::timestamptz)
              OR (method = 'bank_slip' AND boleto_due_date < ${today}::date))
          ORDER BY id
          LIMIT ${limit}`.pipe(
          Effect.flatMap(decodeDue),
          Effect.map((rows) => rows.map((row) => ({ id: row.id, companyId: row.company_id }))),
          storage
        ),

      lockPendingForExpiry: (ids) =>
        ids.length === 0
          ? Effect.succeed([])
          : sql`
              SELECT id FROM invoices WHERE id IN ${sql.in(ids)} AND status = 'pending'
              ORDER BY id
              FOR UPDATE SKIP LOCKED`.pipe(
              Effect.flatMap(decodeIds),
              Effect.map((rows) => rows.map((row) => row.id)),
              storage
            ),

      findById: (id) => findById(id).pipe(storage),

      findBySecureId: (secureId) =>
        sql`${selectInvoice} WHERE i.secure_id = ${secureId}::uuid`.pipe(
          Effect.flatMap(InvoiceStatements.firstInvoice),
          storage
        ),

      findByPixTxid: (txid) =>
        sql`${selectInvoice} WHERE i.pix_txid = ${txid}`.pipe(Effect.flatMap(InvoiceStatements.firstInvoice), storage)
    })
  })
)
