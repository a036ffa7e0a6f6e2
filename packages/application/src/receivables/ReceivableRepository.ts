// Port: receivables (SPEC 13.1). They are written with the moves that make them (InvoiceRepository, with the ledger
// entries they go with); this port reads them and makes due ones available.
import type { BusinessCalendar, Company, Invoice, Receivable, Timestamp } from "@fatura/domain"
import { Context, type Effect } from "effect"
import type { StorageUnavailable } from "../platform/Failures.js"

/** A receivable with the invoice, company and mode it belongs to. */
export interface OwnedReceivable extends Receivable.Receivable {
  readonly invoiceId: Invoice.InvoiceId
  readonly companyId: Company.CompanyId
  readonly mode: Invoice.Mode
}

/** A receivable as the company's schedule lists it. */
export interface ScheduledReceivable extends Receivable.Receivable {
  /** The invoice it belongs to, by its secureId. */
  readonly invoiceId: Invoice.SecureId
  readonly anticipationFee: number
  readonly createdAt: Timestamp.Timestamp
  readonly updatedAt: Timestamp.Timestamp
}

export interface ReceivableFilter {
  readonly companyId: Company.CompanyId
  readonly mode: Invoice.Mode
  /** Only the receivables listed after this one (by payment date, then id). */
  readonly afterId: number | null
  readonly status: Receivable.Status | null
  readonly invoiceId: Invoice.SecureId | null
  readonly paymentDateGte: BusinessCalendar.CalendarDate | null
  readonly paymentDateLte: BusinessCalendar.CalendarDate | null
  readonly limit: number
}

/** A waiting receivable made available, with whom it belongs to. */
export interface OwnedSettlement extends Receivable.Settlement {
  readonly receivable: OwnedReceivable
}

export class ReceivableRepository extends Context.Service<
  ReceivableRepository,
  {
    /** The receivables of an invoice, in the order they were written; read under the invoice's lock. */
    readonly ofInvoice: (
      invoiceId: Invoice.InvoiceId
    ) => Effect.Effect<ReadonlyArray<OwnedReceivable>, StorageUnavailable>
    /** By payment date then id; one more than `limit` tells whether there is a next page. */
    readonly list: (filter: ReceivableFilter) => Effect.Effect<ReadonlyArray<ScheduledReceivable>, StorageUnavailable>
    /** Whether the company has a receivable of `mode` with that id. */
    readonly has: (
      companyId: Company.CompanyId,
      mode: Invoice.Mode,
      id: number
    ) => Effect.Effect<boolean, StorageUnavailable>
    /**
     * Up to `limit` waiting receivables due by `today`, by payment date then id, locked for the enclosing transaction.
     * One whose invoice a move holds is skipped rather than waited for (the move may be taking back from it), and so
     * is one another sweep holds: a sweep never waits, and never blocks a move for longer than its batch.
     */
    readonly lockDue: (
      today: BusinessCalendar.CalendarDate,
      limit: number
    ) => Effect.Effect<ReadonlyArray<OwnedReceivable>, StorageUnavailable>
    /** Writes locked waiting receivables' settlements: each available from its day, with its ledger entries. */
    readonly settle: (
      settlements: ReadonlyArray<OwnedSettlement>,
      at: Timestamp.Timestamp
    ) => Effect.Effect<void, StorageUnavailable>
  }
>()("@fatura/application/ReceivableRepository") {}
