// The InvoiceRepository port in memory: invoices with their timelines, ledger entries and refunds, the bank slip
// numbers, and the locks of companies' ledgers and of invoices that moves take.
import type { Company, Invoice, InvoiceStatus } from "@fatura/domain"
import { Effect, Layer, Option } from "effect"
import { type InvoiceReference, InvoiceRepository } from "../invoices/InvoiceRepository.js"
import { companyLock } from "./InMemoryCompanyRepository.js"
import { InMemoryDatabase, violated } from "./InMemoryDatabase.js"
import { checkInvoice, invoiceLock, make as invoiceRows } from "./InMemoryInvoiceRows.js"
import {
  asJson,
  type InvoiceRow,
  put,
  type RefundRow,
  type Tables,
  toCompany,
  toInvoice,
  totalsOf
} from "./InMemoryTables.js"

const matches = (row: InvoiceRow, companyId: Company.CompanyId, mode: Invoice.Mode, reference: InvoiceReference) =>
  row.companyId === companyId &&
  row.mode === mode &&
  (reference._tag === "Id" ? row.id === reference.id : row.secureId === reference.secureId)

const findRow = (tables: Tables, companyId: Company.CompanyId, mode: Invoice.Mode, reference: InvoiceReference) =>
  reference._tag === "Id"
    ? Option.filter(Option.fromNullishOr(tables.invoices.get(reference.id)), (row) =>
        matches(row, companyId, mode, reference)
      )
    : Option.fromNullishOr([...tables.invoices.values()].find((row) => matches(row, companyId, mode, reference)))

/** The order of a list: newest first by creation time, then by id (timestamps of one format sort as strings). */
const newestFirst = (a: InvoiceRow, b: InvoiceRow) =>
  a.createdAt === b.createdAt ? b.id - a.id : a.createdAt < b.createdAt ? 1 : -1

export const layer = Layer.effect(
  InvoiceRepository,
  Effect.gen(function* () {
    const database = yield* InMemoryDatabase
    const { findById, ledgerEntries, receivableRows, update } = invoiceRows(database)

    return InvoiceRepository.of({
      nextOurNumber: Effect.map(database.nextval("ourNumbers"), (n) => String(n).padStart(11, "0")),

      insert: (invoice, client, cardAssociate, timeline, scheduled) =>
        database.statement(
          Effect.gen(function* () {
            yield* checkInvoice(invoice)
            const clash = yield* database.read((tables) => {
              if (!tables.companies.has(invoice.companyId)) return "invoices_company_id_fkey"
              if (!tables.clients.has(client.id)) return "invoices_client_id_fkey"
              if (cardAssociate !== null && !tables.cardReferences.has(cardAssociate.id)) {
                return "invoices_card_reference_id_fkey"
              }
              for (const row of tables.invoices.values()) {
                if (row.secureId === invoice.secureId) return "invoices_secure_id_key"
                if (invoice.pix !== null && row.pix?.txid === invoice.pix.txid) return "invoices_pix_txid_key"
                if (invoice.boleto !== null && row.boleto?.ourNumber === invoice.boleto.ourNumber) {
                  return "invoices_boleto_our_number_key"
                }
              }
              return undefined
            })
            if (clash !== undefined) return yield* violated(clash, "the invoice breaks a key of the invoices table")
            const id = (yield* database.nextval("invoices")) as Invoice.InvoiceId
            const stored = yield* ledgerEntries(scheduled.movements, invoice.createdAt)
            const entries = timeline.map((entry) => ({ ...entry, createdAt: invoice.createdAt, detail: null }))
            const row: InvoiceRow = {
              ...invoice,
              id,
              metadata: invoice.metadata === null ? null : asJson(invoice.metadata),
              items: asJson(invoice.items),
              payer: asJson(invoice.payer),
              fee: asJson(invoice.fee),
              card: invoice.card === null ? null : asJson(invoice.card),
              clientId: client.id,
              cardReferenceId: cardAssociate?.id ?? null,
              timeline: entries,
              movements: stored,
              refunds: [],
              receivables: yield* receivableRows(scheduled.receivables, invoice.createdAt)
            }
            yield* database.write(put("invoices", id, row))
            // As the SQL adapter: the invoice as given, with what the database added.
            return {
              ...invoice,
              id,
              client,
              cardAssociate,
              timeline: entries,
              movements: stored,
              refunds: []
            } satisfies Invoice.Invoice
          })
        ),

      find: (companyId, mode, reference) =>
        database.read((tables) =>
          Option.map(findRow(tables, companyId, mode, reference), (row) => toInvoice(tables, row))
        ),

      findWithCompany: (companyId, mode, reference, now) =>
        database.read((tables) =>
          Option.map(findRow(tables, companyId, mode, reference), (row) => ({
            invoice: toInvoice(tables, row),
            company: toCompany(tables.companies.get(row.companyId)!),
            totals: totalsOf(tables, row.companyId, row.mode, now)
          }))
        ),

      lock: (companyId, mode, reference) =>
        database.statement(
          Effect.gen(function* () {
            const found = yield* database.read((tables) => findRow(tables, companyId, mode, reference))
            if (Option.isNone(found)) return Option.none()
            yield* database.lock(invoiceLock(found.value.id))
            return yield* findById(found.value.id)
          })
        ),

      lockCompanyLedger: (companyId) =>
        database.statement(
          Effect.gen(function* () {
            yield* database.lock(companyLock(companyId))
            return yield* database.read((tables) =>
              Option.map(Option.fromNullishOr(tables.companies.get(companyId)), toCompany)
            )
          })
        ),

      applyTransition: (invoice, transition) =>
        update(invoice, (row) =>
          Effect.gen(function* () {
            if (transition.refund !== null && !(transition.refund.amount > 0)) {
              return yield* violated("refunds_amount_check", `a refund of ${transition.refund.amount}`)
            }
            const movements = yield* ledgerEntries(transition.movements, transition.at)
            const receivables = yield* receivableRows(transition.receivables, transition.at)
            const refunds: ReadonlyArray<RefundRow> =
              transition.refund === null
                ? []
                : [
                    {
                      id: yield* database.nextval("refunds"),
                      amount: transition.refund.amount,
                      reason: transition.refund.reason,
                      status: "succeeded",
                      failureReason: null,
                      createdAt: transition.at,
                      returnId: null
                    }
                  ]
            return {
              ...row,
              status: transition.status,
              updatedAt: transition.at,
              paidAt: transition.paidAt,
              refundedAmount: transition.refundedAmount,
              pix:
                row.pix === null || transition.pixEndToEndId === undefined
                  ? row.pix
                  : { ...row.pix, endToEndId: transition.pixEndToEndId },
              timeline: [
                ...row.timeline,
                {
                  status: transition.status,
                  event: transition.event,
                  createdAt: transition.at,
                  detail: transition.detail ?? null
                }
              ],
              movements: [...row.movements, ...movements],
              refunds: [...row.refunds, ...refunds],
              receivables: [...row.receivables, ...receivables]
            }
          })
        ),

      settleCardPayment: (invoice, settlement) =>
        update(invoice, (row) =>
          Effect.map(
            Effect.all([
              ledgerEntries(settlement.movements, settlement.at),
              receivableRows(settlement.receivables, settlement.at)
            ]),
            ([movements, receivables]) => ({
              ...row,
              status: settlement.status,
              refusedReason: settlement.refusedReason,
              paidAt: settlement.status === "paid" ? settlement.at : null,
              installments: settlement.installments,
              fee: asJson(settlement.fee),
              card: asJson(settlement.card),
              cardReferenceId: settlement.cardAssociate.id,
              updatedAt: settlement.at,
              timeline: [
                ...row.timeline,
                {
                  status: settlement.status as InvoiceStatus.InvoiceStatus,
                  event: settlement.event,
                  createdAt: settlement.at,
                  detail: null
                }
              ],
              movements: [...row.movements, ...movements],
              receivables: [...row.receivables, ...receivables]
            })
          )
        ),

      list: (filter) =>
        database.read((tables) => {
          const cursor = filter.beforeId === null ? undefined : tables.invoices.get(filter.beforeId)
          return [...tables.invoices.values()]
            .filter(
              (row) =>
                row.companyId === filter.companyId &&
                row.mode === filter.mode &&
                (filter.beforeId === null || (cursor !== undefined && newestFirst(cursor, row) < 0)) &&
                (filter.status === null || row.status === filter.status) &&
                (filter.method === null || row.method === filter.method) &&
                (filter.createdGte === null || row.createdAt >= filter.createdGte) &&
                (filter.createdLte === null || row.createdAt <= filter.createdLte) &&
                (filter.externalRef === null || row.externalRef === filter.externalRef)
            )
            .sort(newestFirst)
            .slice(0, filter.limit + 1)
            .map((row) => toInvoice(tables, row))
        }),

      findDueForExpiry: (now, today, limit) =>
        database.read((tables) =>
          [...tables.invoices.values()]
            .filter(
              (row) =>
                row.status === "pending" &&
                ((row.method === "pix" && row.pix !== null && row.pix.expiresAt <= now) ||
                  (row.method === "bank_slip" && row.boleto !== null && row.boleto.dueDate < today))
            )
            .sort((a, b) => a.id - b.id)
            .slice(0, limit)
            .map((row) => ({ id: row.id, companyId: row.companyId }))
        ),

      lockPendingForExpiry: (ids) =>
        database.statement(
          Effect.gen(function* () {
            const isPending = (tables: Tables, id: Invoice.InvoiceId) => tables.invoices.get(id)?.status === "pending"
            const candidates = yield* database.read((tables) =>
              [...new Set(ids)].filter((id) => isPending(tables, id)).sort((a, b) => a - b)
            )
            // SKIP LOCKED: an invoice another transaction holds is left to it. One taken is read again under the
            // lock, as Postgres does: a move may have committed since.
            const locked = yield* Effect.filter(candidates, (id) => database.tryLock(invoiceLock(id)))
            return yield* database.read((tables) => locked.filter((id) => isPending(tables, id)))
          })
        ),

      findById,

      findBySecureId: (secureId) =>
        database.read((tables) => {
          const row = [...tables.invoices.values()].find((invoice) => invoice.secureId === secureId)
          return Option.map(Option.fromNullishOr(row), (found) => toInvoice(tables, found))
        }),

      findByPixTxid: (txid) =>
        database.read((tables) =>
          Option.map(Option.fromNullishOr([...tables.invoices.values()].find((row) => row.pix?.txid === txid)), (row) =>
            toInvoice(tables, row)
          )
        )
    })
  })
)
