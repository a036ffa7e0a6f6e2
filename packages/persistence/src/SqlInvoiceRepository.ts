// The InvoiceRepository port in SQL. An invoice is read with its client and timeline in one round trip.
import {
  type CardCharge,
  type CardChargeDraft,
  type CardChargeTerms,
  type InvoiceReference,
  InvoiceRepository,
  type NewInvoice,
  type NewMovement,
  type PendingRefund,
  type PixRejection
} from "@fatura/application"
import type {
  Cents,
  Company,
  Document,
  FeePlan,
  Invoice,
  InvoiceStatus,
  PaymentMethod,
  Timestamp
} from "@fatura/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { int, json, nullableText, nullableTimestamp, storage, text, timestamp } from "./Columns.js"
import { companyColumns, joinBalances, toCompany, toTotals, totalsColumns } from "./SqlCompanyRepository.js"

const toClient = (row: Record<string, unknown>, prefix: string): Invoice.Client => ({
  id: int(row[`${prefix}id`]) as Invoice.ClientId,
  name: text(row[`${prefix}name`]),
  email: text(row[`${prefix}email`]),
  phone: nullableText(row[`${prefix}phone`]),
  document: {
    type: text(row[`${prefix}document_type`]) as Document.DocumentType,
    number: text(row[`${prefix}document_number`])
  },
  createdAt: timestamp(row[`${prefix}created_at`]),
  updatedAt: timestamp(row[`${prefix}updated_at`])
})

interface TimelineRow {
  readonly status: InvoiceStatus.InvoiceStatus
  readonly event: string
  readonly created_at: string
}

interface RefundRow {
  readonly id: number | string
  readonly amount: number | string
  readonly reason: string | null
  readonly status: Invoice.RefundStatus
  readonly failure_reason: string | null
  readonly created_at: string
}

interface MovementRow {
  readonly id: number | string
  readonly type: Invoice.MovementType
  readonly direction: "credit" | "debit"
  readonly amount: number | string
  readonly balance: PaymentMethod.BalanceKind
  readonly created_at: string
}

const toInvoice = (row: Record<string, unknown>): Invoice.Invoice => ({
  id: int(row.id) as Invoice.InvoiceId,
  secureId: text(row.secure_id) as Invoice.SecureId,
  companyId: int(row.company_id) as Company.CompanyId,
  mode: text(row.mode) as Invoice.Mode,
  method: text(row.method) as PaymentMethod.PaymentMethod,
  status: text(row.status) as InvoiceStatus.InvoiceStatus,
  amount: int(row.amount) as Cents.Cents,
  installments: int(row.installments),
  createdAt: timestamp(row.created_at),
  updatedAt: timestamp(row.updated_at),
  paidAt: nullableTimestamp(row.paid_at),
  refundedAmount: int(row.refunded_amount) as Cents.Cents,
  refusedReason: nullableText(row.refused_reason),
  postbackUrl: nullableText(row.postback_url),
  traceable: row.traceable === true,
  ip: nullableText(row.ip),
  metadata: row.metadata === null ? null : json<Record<string, string>>(row.metadata),
  externalRef: nullableText(row.external_ref),
  items: json<ReadonlyArray<Invoice.InvoiceItem>>(row.items),
  payer: json<Invoice.Payer>(row.payer),
  client: toClient(row, "client_"),
  tokenCheckout: text(row.token_checkout),
  fee: json<FeePlan.FeeSplit>(row.fee),
  pix:
    row.pix_qr_code === null
      ? null
      : {
          qrCode: text(row.pix_qr_code),
          txid: text(row.pix_txid),
          expiresAt: timestamp(row.pix_expires_at),
          endToEndId: nullableText(row.pix_end_to_end_id)
        },
  boleto:
    row.boleto_barcode === null
      ? null
      : {
          barcode: text(row.boleto_barcode),
          digitableLine: text(row.boleto_digitable_line),
          dueDate: text(row.boleto_due_date),
          url: text(row.boleto_url),
          bankCode: text(row.boleto_bank_code),
          ourNumber: text(row.boleto_our_number)
        },
  card: row.card === null ? null : json<Invoice.CardDetails>(row.card),
  cardAssociate:
    row.card_reference_id === null
      ? null
      : {
          id: int(row.card_reference_id),
          brand: text(row.card_reference_brand),
          lastDigits: text(row.card_reference_last_digits),
          clientId: int(row.client_id) as Invoice.ClientId,
          createdAt: timestamp(row.card_reference_created_at)
        },
  timeline: json<ReadonlyArray<TimelineRow>>(row.timeline).map((entry) => ({
    status: entry.status,
    event: entry.event,
    createdAt: timestamp(entry.created_at)
  })),
  refunds: json<ReadonlyArray<RefundRow>>(row.refunds).map((entry) => ({
    id: int(entry.id),
    amount: int(entry.amount) as Cents.Cents,
    reason: entry.reason,
    status: entry.status,
    failureReason: entry.failure_reason,
    createdAt: timestamp(entry.created_at)
  })),
  movements: json<ReadonlyArray<MovementRow>>(row.movements).map((entry) => ({
    id: int(entry.id),
    type: entry.type,
    direction: entry.direction,
    amount: int(entry.amount) as Cents.Cents,
    balance: entry.balance,
    createdAt: timestamp(entry.created_at)
  }))
})

const toPendingRefund = (row: Record<string, unknown>): PendingRefund => ({
  id: int(row.id),
  invoiceId: int(row.invoice_id) as Invoice.InvoiceId,
  companyId: int(row.company_id) as Company.CompanyId,
  mode: text(row.mode) as Invoice.Mode,
  amount: int(row.amount) as Cents.Cents,
  returnId: text(row.return_id),
  endToEndId: text(row.pix_end_to_end_id),
  status: text(row.status) as Invoice.RefundStatus,
  createdAt: timestamp(row.created_at)
})

const toPixRejection = (row: Record<string, unknown>): PixRejection => ({
  endToEndId: text(row.end_to_end_id),
  invoiceId: int(row.invoice_id) as Invoice.InvoiceId,
  amount: int(row.amount) as Cents.Cents,
  returnId: text(row.return_id),
  returnState: text(row.return_state) as PixRejection["returnState"],
  createdAt: timestamp(row.created_at)
})

const toCardCharge = (row: Record<string, unknown>): CardCharge => ({
  reference: text(row.reference),
  invoiceId: row.invoice_id === null ? null : (int(row.invoice_id) as Invoice.InvoiceId),
  companyId: int(row.company_id) as Company.CompanyId,
  mode: text(row.mode) as Invoice.Mode,
  state: text(row.state) as CardCharge["state"],
  terms: json<CardChargeTerms>(row.terms),
  draft: row.draft === null ? null : json<CardChargeDraft>(row.draft),
  requestedAt: timestamp(row.requested_at),
  reversal: row.reversal === null ? null : (text(row.reversal) as CardCharge["reversal"])
})

const cardChargeColumns =
  "reference, invoice_id, company_id, mode, state, terms, draft, fatura_ts(requested_at) AS requested_at, reversal"

export const layer = Layer.effect(
  InvoiceRepository,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const invoiceColumns = sql.unsafe(`
      i.id, i.secure_id::text AS secure_id, i.company_id, i.mode, i.method, i.status, i.amount,
        i.installments, i.refunded_amount, i.refused_reason, i.postback_url, i.traceable, i.ip, i.metadata,
        i.external_ref, i.items, i.payer, i.token_checkout, i.fee, i.pix_qr_code, i.pix_txid,
        i.pix_end_to_end_id, fatura_ts(i.pix_expires_at) AS pix_expires_at, fatura_ts(i.created_at) AS created_at,
        fatura_ts(i.updated_at) AS updated_at, fatura_ts(i.paid_at) AS paid_at,
        i.boleto_barcode, i.boleto_digitable_line, to_char(i.boleto_due_date, 'YYYY-MM-DD') AS boleto_due_date,
        i.boleto_url, i.boleto_bank_code, i.boleto_our_number, i.card, i.card_reference_id,
        r.brand AS card_reference_brand, r.last_digits AS card_reference_last_digits,
        fatura_ts(r.created_at) AS card_reference_created_at,
        c.id AS client_id, c.name AS client_name, c.email AS client_email, c.phone AS client_phone,
        c.document_type AS client_document_type, c.document_number AS client_document_number,
        fatura_ts(c.created_at) AS client_created_at, fatura_ts(c.updated_at) AS client_updated_at,
        (SELECT coalesce(json_agg(json_build_object('status', t.status, 'event', t.event,
                                                    'created_at', fatura_ts(t.created_at)) ORDER BY t.id), '[]')
           FROM invoice_timeline t WHERE t.invoice_id = i.id) AS timeline,
        (SELECT coalesce(json_agg(json_build_object('id', l.id, 'type', l.type, 'direction', l.direction,
                                                    'amount', l.amount, 'balance', l.balance,
                                                    'created_at', fatura_ts(l.created_at)) ORDER BY l.id), '[]')
           FROM ledger_entries l WHERE l.invoice_id = i.id) AS movements,
        (SELECT coalesce(json_agg(json_build_object('id', f.id, 'amount', f.amount, 'reason', f.reason,
                                                    'status', f.status, 'failure_reason', f.failure_reason,
                                                    'created_at', fatura_ts(f.created_at))
                                  ORDER BY f.id), '[]')
           FROM refunds f WHERE f.invoice_id = i.id) AS refunds`)
    const invoiceTables = sql.unsafe(`
      invoices i
      JOIN clients c ON c.id = i.client_id
      LEFT JOIN card_references r ON r.id = i.card_reference_id`)
    const selectInvoice = sql`SELECT ${invoiceColumns} FROM ${invoiceTables}`
    const ownerColumns = companyColumns(sql, "co", "co_")
    const invoiceBalances = joinBalances(sql, "i")
    const companyLockColumns = companyColumns(sql, "c")
    const byReference = (companyId: Company.CompanyId, mode: Invoice.Mode, reference: InvoiceReference) =>
      reference._tag === "Id"
        ? sql`i.id = ${reference.id} AND i.company_id = ${companyId} AND i.mode = ${mode}`
        : sql`i.secure_id = ${reference.secureId}::uuid AND i.company_id = ${companyId} AND i.mode = ${mode}`

    const selectPendingRefund = sql`
      SELECT f.id, f.invoice_id, i.company_id, i.mode, f.amount, f.return_id, i.pix_end_to_end_id, f.status,
        fatura_ts(f.created_at) AS created_at
      FROM refunds f JOIN invoices i ON i.id = f.invoice_id`

    const selectPixRejection = sql`
      SELECT end_to_end_id, invoice_id, amount, return_id, return_state, fatura_ts(created_at) AS created_at
      FROM pix_rejections`

    const findById = (id: Invoice.InvoiceId) =>
      sql`${selectInvoice} WHERE i.id = ${id}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toInvoice))
      )

    const appendTimeline = (
      invoiceId: Invoice.InvoiceId,
      entry: { readonly status: InvoiceStatus.InvoiceStatus; readonly event: string },
      at: Timestamp.Timestamp
    ) =>
      sql`
        INSERT INTO invoice_timeline (invoice_id, status, event, created_at)
        VALUES (${invoiceId}, ${entry.status}, ${entry.event}, ${at}::timestamptz)`

    const appendLedger = (
      invoice: Pick<Invoice.Invoice, "id" | "companyId" | "mode">,
      movement: NewMovement,
      at: Timestamp.Timestamp
    ) =>
      sql`
        INSERT INTO ledger_entries (company_id, invoice_id, mode, type, direction, amount, balance, created_at)
        VALUES (${invoice.companyId}, ${invoice.id}, ${invoice.mode}, ${movement.type}, ${movement.direction},
                ${movement.amount}, ${movement.balance}, ${at}::timestamptz)
        RETURNING id`.pipe(
        Effect.map((rows): Invoice.Movement => ({ ...movement, id: int(rows[0]!.id), createdAt: at }))
      )

    return InvoiceRepository.of({
      upsertClient: (contact) =>
        sql`
          INSERT INTO clients (company_id, mode, document_type, document_number, name, email, phone, created_at,
                               updated_at)
          VALUES (${contact.companyId}, ${contact.mode}, ${contact.document.type}, ${contact.document.number}, ${contact.name},
                  ${contact.email}, ${contact.phone}, ${contact.now}::timestamptz, ${contact.now}::timestamptz)
          ON CONFLICT (company_id, mode, document_number) DO UPDATE
            SET name = excluded.name, email = excluded.email, phone = coalesce(excluded.phone, clients.phone),
                updated_at = excluded.updated_at
          RETURNING id, name, email, phone, document_type, document_number,
            fatura_ts(created_at) AS created_at, fatura_ts(updated_at) AS updated_at`.pipe(
          Effect.map((rows) => toClient(rows[0]!, "")),
          storage
        ),

      associateCard: (card) =>
        sql`
          INSERT INTO card_references AS r (company_id, client_id, brand, first_digits, last_digits, expiration_month,
                                            expiration_year, created_at)
          VALUES (${card.companyId}, ${card.clientId}, ${card.brand}, ${card.firstDigits}, ${card.lastDigits},
                  ${card.expirationMonth}, ${card.expirationYear}, ${card.now}::timestamptz)
          ON CONFLICT (client_id, brand, first_digits, last_digits, expiration_month, expiration_year)
            DO UPDATE SET brand = r.brand
          RETURNING id, brand, last_digits, client_id, fatura_ts(created_at) AS created_at`.pipe(
          Effect.map((rows) => {
            const row = rows[0]!
            return {
              id: int(row.id),
              brand: text(row.brand),
              lastDigits: text(row.last_digits),
              clientId: int(row.client_id) as Invoice.ClientId,
              createdAt: timestamp(row.created_at)
            } satisfies Invoice.CardAssociate
          }),
          storage
        ),

      nextOurNumber: sql`SELECT nextval('boleto_our_number') AS n`.pipe(
        Effect.map((rows) => String(int(rows[0]!.n)).padStart(11, "0")),
        storage
      ),

      insert: (invoice: NewInvoice, client, cardAssociate, timeline, movements) =>
        Effect.gen(function* () {
          const boleto = invoice.boleto
          // The invoice and its timeline in one statement; the entries keep their order (their ids follow `n`).
          const entries = sql.csv(timeline.map((entry, n) => sql`(${n}, ${entry.status}, ${entry.event})`))
          const inserted = yield* sql`
            WITH inserted AS (
            INSERT INTO invoices (secure_id, company_id, client_id, mode, method, status, amount, installments,
              refunded_amount, refused_reason, postback_url, traceable, ip, metadata, external_ref, items, payer,
              token_checkout, fee, pix_qr_code, pix_txid, pix_expires_at, boleto_barcode, boleto_digitable_line,
              boleto_due_date, boleto_url, boleto_bank_code, boleto_our_number, card, card_reference_id,
              created_at, updated_at, paid_at)
            VALUES (${invoice.secureId}::uuid, ${invoice.companyId}, ${client.id}, ${invoice.mode}, ${invoice.method},
              ${invoice.status}, ${invoice.amount}, ${invoice.installments}, ${invoice.refundedAmount},
              ${invoice.refusedReason}, ${invoice.postbackUrl}, ${invoice.traceable}, ${invoice.ip},
              ${invoice.metadata === null ? null : JSON.stringify(invoice.metadata)}::jsonb, ${invoice.externalRef},
              ${JSON.stringify(invoice.items)}::jsonb, ${JSON.stringify(invoice.payer)}::jsonb,
              ${invoice.tokenCheckout}, ${JSON.stringify(invoice.fee)}::jsonb, ${invoice.pix?.qrCode ?? null},
              ${invoice.pix?.txid ?? null}, ${invoice.pix?.expiresAt ?? null}::timestamptz,
              ${boleto?.barcode ?? null}, ${boleto?.digitableLine ?? null}, ${boleto?.dueDate ?? null}::date,
              ${boleto?.url ?? null}, ${boleto?.bankCode ?? null}, ${boleto?.ourNumber ?? null},
              ${invoice.card === null ? null : JSON.stringify(invoice.card)}::jsonb, ${cardAssociate?.id ?? null},
              ${invoice.createdAt}::timestamptz, ${invoice.updatedAt}::timestamptz, ${invoice.paidAt}::timestamptz)
            RETURNING id
            ), timeline AS (
              INSERT INTO invoice_timeline (invoice_id, status, event, created_at)
              SELECT inserted.id, entry.status, entry.event, ${invoice.createdAt}::timestamptz
              FROM inserted, (VALUES ${entries}) AS entry (n, status, event)
              ORDER BY entry.n
            )
            SELECT id FROM inserted`
          const id = int(inserted[0]!.id) as Invoice.InvoiceId
          const stored: Array<Invoice.Movement> = []
          for (const movement of movements) {
            stored.push(yield* appendLedger({ ...invoice, id }, movement, invoice.createdAt))
          }
          return {
            ...invoice,
            id,
            client,
            cardAssociate,
            timeline: timeline.map((entry) => ({ ...entry, createdAt: invoice.createdAt })),
            movements: stored,
            refunds: []
          } satisfies Invoice.Invoice
        }).pipe(storage),

      find: (companyId, mode, reference) =>
        sql`${selectInvoice} WHERE ${byReference(companyId, mode, reference)}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toInvoice)),
          storage
        ),

      findWithCompany: (companyId, mode, reference, now) =>
        sql`
          SELECT ${invoiceColumns}, ${ownerColumns}, ${totalsColumns(sql, "i", now)}
          FROM ${invoiceTables}
          JOIN companies co ON co.id = i.company_id
          ${invoiceBalances}
          WHERE ${byReference(companyId, mode, reference)}`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullishOr(rows[0]), (row) => ({
              invoice: toInvoice(row),
              company: toCompany(row, "co_"),
              totals: toTotals(row)
            }))
          ),
          storage
        ),

      lock: (companyId, mode, reference) =>
        sql`SELECT i.id FROM invoices i WHERE ${byReference(companyId, mode, reference)} FOR UPDATE`.pipe(
          Effect.flatMap((rows) =>
            rows[0] === undefined ? Effect.succeed(Option.none()) : findById(int(rows[0].id) as Invoice.InvoiceId)
          ),
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
        Effect.gen(function* () {
          yield* sql`
            UPDATE invoices
            SET status = ${transition.status}, updated_at = ${transition.at}::timestamptz,
                paid_at = ${transition.paidAt}::timestamptz, refunded_amount = ${transition.refundedAmount},
                pix_end_to_end_id = coalesce(${transition.pixEndToEndId ?? null}, pix_end_to_end_id)
            WHERE id = ${invoice.id}`
          yield* appendTimeline(invoice.id, transition, transition.at)
          for (const movement of transition.movements) yield* appendLedger(invoice, movement, transition.at)
          if (transition.refund !== null) {
            yield* sql`
              INSERT INTO refunds (invoice_id, amount, reason, created_at)
              VALUES (${invoice.id}, ${transition.refund.amount}, ${transition.refund.reason},
                      ${transition.at}::timestamptz)`
          }
          const moved = yield* findById(invoice.id)
          return Option.getOrThrow(moved)
        }).pipe(storage),

      settleCardPayment: (invoice, settlement) =>
        Effect.gen(function* () {
          yield* sql`
            UPDATE invoices
            SET status = ${settlement.status}, refused_reason = ${settlement.refusedReason},
                paid_at = ${settlement.status === "paid" ? settlement.at : null}::timestamptz,
                installments = ${settlement.installments}, fee = ${JSON.stringify(settlement.fee)}::jsonb,
                card = ${JSON.stringify(settlement.card)}::jsonb, card_reference_id = ${settlement.cardAssociate.id},
                updated_at = ${settlement.at}::timestamptz
            WHERE id = ${invoice.id}`
          yield* appendTimeline(
            invoice.id,
            { status: settlement.status, event: `invoice.${settlement.status}` },
            settlement.at
          )
          for (const movement of settlement.movements) yield* appendLedger(invoice, movement, settlement.at)
          return Option.getOrThrow(yield* findById(invoice.id))
        }).pipe(storage),

      recordCardCharge: (charge) =>
        sql`
          INSERT INTO card_charges (reference, invoice_id, company_id, mode, state, terms, draft, requested_at)
          VALUES (${charge.reference}, ${charge.invoiceId}, ${charge.companyId}, ${charge.mode}, 'requested',
                  ${JSON.stringify(charge.terms)}::jsonb,
                  ${charge.draft === null ? null : JSON.stringify(charge.draft)}::jsonb,
                  ${charge.requestedAt}::timestamptz)`.pipe(Effect.asVoid, storage),

      chargeInFlight: (invoiceId) =>
        sql`
          SELECT ${sql.unsafe(cardChargeColumns)} FROM card_charges
          WHERE invoice_id = ${invoiceId} AND state = 'requested'`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toCardCharge)),
          storage
        ),

      findCardCharge: (reference) =>
        sql`SELECT ${sql.unsafe(cardChargeColumns)} FROM card_charges WHERE reference = ${reference}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toCardCharge)),
          storage
        ),

      lockCardCharge: (reference) =>
        sql`SELECT ${sql.unsafe(cardChargeColumns)} FROM card_charges WHERE reference = ${reference} FOR UPDATE`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toCardCharge)),
          storage
        ),

      closeCardCharge: (reference, state, invoiceId, at) =>
        sql`
          UPDATE card_charges
          SET state = ${state}, invoice_id = coalesce(${invoiceId}, invoice_id), draft = NULL,
              settled_at = ${at}::timestamptz
          WHERE reference = ${reference}`.pipe(Effect.asVoid, storage),

      closeLateCardCharge: (reference, approved, at) =>
        sql`
          UPDATE card_charges
          SET state = 'late', draft = NULL, settled_at = ${at}::timestamptz,
              reversal = ${approved ? "requested" : null}
          WHERE reference = ${reference}`.pipe(Effect.asVoid, storage),

      closeCardChargeReversal: (reference, reversal, at) =>
        sql`
          UPDATE card_charges SET reversal = ${reversal}, reversed_at = ${at}::timestamptz
          WHERE reference = ${reference} AND reversal = 'requested'`.pipe(Effect.asVoid, storage),

      staleCardChargeReversals: (closedBefore, limit) =>
        sql`
          SELECT ${sql.unsafe(cardChargeColumns)} FROM card_charges
          WHERE reversal = 'requested' AND settled_at < ${closedBefore}::timestamptz
          ORDER BY settled_at
          LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map(toCardCharge)),
          storage
        ),

      staleCardCharges: (requestedBefore, limit) =>
        sql`
          SELECT ${sql.unsafe(cardChargeColumns)} FROM card_charges
          WHERE state = 'requested' AND requested_at < ${requestedBefore}::timestamptz
          ORDER BY requested_at
          LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map(toCardCharge)),
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
          LIMIT ${filter.limit + 1}`.pipe(
          Effect.map((rows) => rows.map(toInvoice)),
          storage
        )
      },

      findDueForExpiry: (now, today, limit) =>
        sql`
          SELECT id, company_id FROM invoices
          WHERE status = 'pending'
            AND ((method = 'pix' AND pix_expires_at <= ${now}::timestamptz)
              OR (method = 'bank_slip' AND boleto_due_date < ${today}::date))
          ORDER BY id
          LIMIT ${limit}`.pipe(
          Effect.map((rows) =>
            rows.map((row) => ({
              id: int(row.id) as Invoice.InvoiceId,
              companyId: int(row.company_id) as Company.CompanyId
            }))
          ),
          storage
        ),

      lockPendingForExpiry: (ids) =>
        ids.length === 0
          ? Effect.succeed([])
          : sql`
              SELECT id FROM invoices WHERE id IN ${sql.in(ids)} AND status = 'pending'
              ORDER BY id
              FOR UPDATE SKIP LOCKED`.pipe(
              Effect.map((rows) => rows.map((row) => int(row.id) as Invoice.InvoiceId)),
              storage
            ),

      findById: (id) => findById(id).pipe(storage),

      findBySecureId: (secureId) =>
        sql`${selectInvoice} WHERE i.secure_id = ${secureId}::uuid`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toInvoice)),
          storage
        ),

      recordEvent: (event) =>
        Effect.gen(function* () {
          yield* sql`
            INSERT INTO events (id, company_id, invoice_id, type, livemode, data, created_at, reason)
            VALUES (${event.id}, ${event.companyId}, ${event.invoiceId}, ${event.type}, ${event.livemode},
                    ${JSON.stringify(event.data)}::jsonb, ${event.createdAt}::timestamptz, ${event.reason ?? null})`
          // The outbox: the delivery commits with the event, or neither does (SPEC 8.1).
          if (event.postbackUrl !== null) {
            yield* sql`
              INSERT INTO deliveries (event_id, company_id, url, status, next_attempt_at, created_at, updated_at)
              VALUES (${event.id}, ${event.companyId}, ${event.postbackUrl}, 'pending', ${event.createdAt}::timestamptz,
                      ${event.createdAt}::timestamptz, ${event.createdAt}::timestamptz)`
          }
        }).pipe(storage),

      findByPixTxid: (txid) =>
        sql`${selectInvoice} WHERE i.pix_txid = ${txid}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toInvoice)),
          storage
        ),

      recordPendingRefund: (invoice, request) =>
        Effect.gen(function* () {
          const rows = yield* sql`
            INSERT INTO refunds (invoice_id, amount, reason, status, return_id, created_at)
            VALUES (${invoice.id}, ${request.amount}, ${request.reason}, 'pending', ${request.returnId},
                    ${request.at}::timestamptz)
            RETURNING id`
          for (const movement of request.movements) yield* appendLedger(invoice, movement, request.at)
          yield* sql`UPDATE invoices SET updated_at = ${request.at}::timestamptz WHERE id = ${invoice.id}`
          return int(rows[0]!.id)
        }).pipe(storage),

      findPendingRefund: (returnId) =>
        sql`${selectPendingRefund} WHERE f.return_id = ${returnId}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toPendingRefund)),
          storage
        ),

      closePendingRefund: (invoice, refundId, outcome, at) =>
        Effect.gen(function* () {
          const closed = yield* sql`
            UPDATE refunds
            SET status = ${outcome.status}, settled_at = ${at}::timestamptz,
                failure_reason = ${outcome.status === "failed" ? outcome.reason : null}
            WHERE id = ${refundId} AND invoice_id = ${invoice.id} AND status = 'pending'
            RETURNING id`
          if (closed.length === 0) return false
          if (outcome.status === "failed") {
            for (const movement of outcome.movements) yield* appendLedger(invoice, movement, at)
            yield* sql`UPDATE invoices SET updated_at = ${at}::timestamptz WHERE id = ${invoice.id}`
          }
          return true
        }).pipe(storage),

      stalePendingRefunds: (createdBefore, limit) =>
        sql`
          ${selectPendingRefund}
          WHERE f.status = 'pending' AND f.created_at < ${createdBefore}::timestamptz
          ORDER BY f.created_at, f.id
          LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map(toPendingRefund)),
          storage
        ),

      recordPixRejection: (rejection) =>
        sql`
          INSERT INTO pix_rejections (end_to_end_id, invoice_id, amount, reason, return_id, created_at)
          VALUES (${rejection.endToEndId}, ${rejection.invoiceId}, ${rejection.amount}, ${rejection.reason},
                  ${rejection.returnId}, ${rejection.at}::timestamptz)
          ON CONFLICT (end_to_end_id) DO NOTHING
          RETURNING end_to_end_id`.pipe(
          Effect.map((rows) => rows.length > 0),
          storage
        ),

      closePixRejection: (returnId, state, at) =>
        sql`
          UPDATE pix_rejections SET return_state = ${state}, settled_at = ${at}::timestamptz
          WHERE return_id = ${returnId} AND return_state = 'pending'`.pipe(Effect.asVoid, storage),

      findPendingReturns: (returnIds) =>
        returnIds.length === 0
          ? Effect.succeed({ refunds: [], rejections: [] })
          : // Both kinds in one statement: a refund's row and a rejection's, told apart by `kind`.
            sql`
              SELECT 'refund' AS kind, f.id, f.invoice_id, i.company_id, i.mode, f.amount, f.return_id,
                i.pix_end_to_end_id AS end_to_end_id, f.status AS state, fatura_ts(f.created_at) AS created_at
              FROM refunds f JOIN invoices i ON i.id = f.invoice_id
              WHERE f.return_id IN ${sql.in(returnIds)} AND f.status = 'pending'
              UNION ALL
              SELECT 'rejection', NULL, r.invoice_id, NULL, NULL, r.amount, r.return_id, r.end_to_end_id,
                r.return_state, fatura_ts(r.created_at)
              FROM pix_rejections r
              WHERE r.return_id IN ${sql.in(returnIds)} AND r.return_state = 'pending'`.pipe(
              Effect.map((rows) => ({
                refunds: rows
                  .filter((row) => row.kind === "refund")
                  .map((row) => toPendingRefund({ ...row, pix_end_to_end_id: row.end_to_end_id, status: row.state })),
                rejections: rows
                  .filter((row) => row.kind === "rejection")
                  .map((row) => toPixRejection({ ...row, return_state: row.state }))
              })),
              storage
            ),

      stalePixRejections: (createdBefore, limit) =>
        sql`
          ${selectPixRejection}
          WHERE return_state = 'pending' AND created_at < ${createdBefore}::timestamptz
          ORDER BY created_at, end_to_end_id
          LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map(toPixRejection)),
          storage
        ),

      pixListedUntil: sql`
        SELECT fatura_ts(listed_until) AS listed_until FROM pix_reconciliations WHERE provider = 'pix'`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), (row) => timestamp(row.listed_until))),
        storage
      ),

      setPixListedUntil: (until) =>
        sql`
          INSERT INTO pix_reconciliations (provider, listed_until) VALUES ('pix', ${until}::timestamptz)
          ON CONFLICT (provider) DO UPDATE
            SET listed_until = greatest(pix_reconciliations.listed_until, excluded.listed_until)`.pipe(
          Effect.asVoid,
          storage
        )
    })
  })
)
