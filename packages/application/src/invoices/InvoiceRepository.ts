// Port: invoices with the statuses they went through and their ledger entries, and the locks their moves take.
import type {
  Company,
  FeePlan,
  Invoice,
  InvoiceStatus,
  Moves,
  PaymentMethod,
  Receivable,
  Timestamp
} from "@fatura/domain"
import { Context, type Effect, type Option } from "effect"
import type { StorageUnavailable } from "../platform/Failures.js"

export type NewInvoice = Omit<Invoice.Invoice, "id" | "client" | "cardAssociate" | "timeline" | "movements" | "refunds">

export type NewMovement = Omit<Invoice.Movement, "id" | "createdAt">

/** What a payment, a refund or a chargeback writes to the ledger and the schedule (Receivable.Scheduled). */
export interface Scheduled {
  readonly movements: ReadonlyArray<NewMovement>
  readonly receivables: ReadonlyArray<Receivable.NewReceivable>
}

export type InvoiceReference =
  | { readonly _tag: "SecureId"; readonly secureId: Invoice.SecureId }
  | { readonly _tag: "Id"; readonly id: Invoice.InvoiceId }

/** A move of an invoice to a new status, with what it writes besides the status (SPEC 7.1, 7.4): the domain's. */
export type Transition = Moves.Transition

/** The charge of a pending card invoice: its outcome and what it fixes. */
export interface CardSettlement {
  readonly status: "paid" | "refused"
  /** The event of the status it settles in (the domain's `Moves.settleCardCharge`). */
  readonly event: string
  readonly refusedReason: string | null
  readonly installments: number
  readonly fee: FeePlan.FeeSplit
  readonly card: Invoice.CardDetails
  readonly cardAssociate: Invoice.CardAssociate
  readonly at: Timestamp.Timestamp
  readonly movements: ReadonlyArray<NewMovement>
  readonly receivables: ReadonlyArray<Receivable.NewReceivable>
}

export interface ListFilter {
  readonly companyId: Company.CompanyId
  readonly mode: Invoice.Mode
  /**
   * Only the invoices listed after this one. A list is newest first: by creation time, and by id among invoices
   * created at the same instant.
   */
  readonly beforeId: Invoice.InvoiceId | null
  readonly status: InvoiceStatus.InvoiceStatus | null
  readonly method: PaymentMethod.PaymentMethod | null
  readonly createdGte: Timestamp.Timestamp | null
  readonly createdLte: Timestamp.Timestamp | null
  readonly externalRef: string | null
  readonly limit: number
}

export interface DueForExpiry {
  readonly id: Invoice.InvoiceId
  readonly companyId: Company.CompanyId
}

export class InvoiceRepository extends Context.Service<
  InvoiceRepository,
  {
    /** A new, never repeated bank slip number. */
    readonly nextOurNumber: Effect.Effect<string, StorageUnavailable>
    /**
     * Inserts the invoice with the statuses it went through, and the ledger entries and receivables of what it was
     * paid with at once; returns it as stored.
     */
    readonly insert: (
      invoice: NewInvoice,
      client: Invoice.Client,
      cardAssociate: Invoice.CardAssociate | null,
      timeline: ReadonlyArray<{ readonly status: InvoiceStatus.InvoiceStatus; readonly event: string }>,
      scheduled: Scheduled
    ) => Effect.Effect<Invoice.Invoice, StorageUnavailable>
    /** The company's invoice of that mode; invoices of other companies or of the other mode are not found. */
    readonly find: (
      companyId: Company.CompanyId,
      mode: Invoice.Mode,
      reference: InvoiceReference
    ) => Effect.Effect<Option.Option<Invoice.Invoice>, StorageUnavailable>
    /**
     * `find`, with the company as it is now and its totals with the competition month of `now`, in one statement:
     * what Search Transaction answers.
     */
    readonly findWithCompany: (
      companyId: Company.CompanyId,
      mode: Invoice.Mode,
      reference: InvoiceReference,
      now: Timestamp.Timestamp
    ) => Effect.Effect<
      Option.Option<{
        readonly invoice: Invoice.Invoice
        readonly company: Company.Company
        readonly totals: Company.CompanyTotals
      }>,
      StorageUnavailable
    >
    /**
     * The company's invoice, locked until the enclosing transaction ends, so that concurrent changes to it
     * (refunds, chargebacks) happen one after the other. Taken after `lockCompanyLedger`, never before.
     */
    readonly lock: (
      companyId: Company.CompanyId,
      mode: Invoice.Mode,
      reference: InvoiceReference
    ) => Effect.Effect<Option.Option<Invoice.Invoice>, StorageUnavailable>
    /**
     * Serializes the changes of one company's invoices inside the enclosing transaction; returns the company as it
     * is now, which stays so until the transaction ends.
     *
     * The lock order: a transaction that moves invoices locks their company here first, then the invoices (`lock`,
     * `lockPendingForExpiry`); several companies in ascending id. Every move keeps to it — money moves, payments,
     * expiries, chargebacks — so two of them never wait on each other in a cycle. The lock leaves alone what merely
     * refers to the company (a new invoice, an event): those never wait for it.
     */
    readonly lockCompanyLedger: (
      companyId: Company.CompanyId
    ) => Effect.Effect<Option.Option<Company.Company>, StorageUnavailable>
    /** Applies a transition to a locked invoice and returns the invoice as it now is. */
    readonly applyTransition: (
      invoice: Invoice.Invoice,
      transition: Transition
    ) => Effect.Effect<Invoice.Invoice, StorageUnavailable>
    /** Settles a locked pending card invoice with its charge; returns the invoice as it now is. */
    readonly settleCardPayment: (
      invoice: Invoice.Invoice,
      settlement: CardSettlement
    ) => Effect.Effect<Invoice.Invoice, StorageUnavailable>
    /** Newest first; one more than `limit` tells whether there is a next page. */
    readonly list: (filter: ListFilter) => Effect.Effect<ReadonlyArray<Invoice.Invoice>, StorageUnavailable>
    /**
     * Up to `limit` pending invoices past their expiry (pix) or due date (boleto), oldest first, read without a
     * lock: their companies are to be locked before them.
     */
    readonly findDueForExpiry: (
      now: Timestamp.Timestamp,
      today: string,
      limit: number
    ) => Effect.Effect<ReadonlyArray<DueForExpiry>, StorageUnavailable>
    /**
     * Those of `ids` that are still pending, locked for the enclosing transaction; one that another transaction
     * holds is skipped rather than waited for, so a sweep never waits on an invoice.
     */
    readonly lockPendingForExpiry: (
      ids: ReadonlyArray<Invoice.InvoiceId>
    ) => Effect.Effect<ReadonlyArray<Invoice.InvoiceId>, StorageUnavailable>
    readonly findById: (id: Invoice.InvoiceId) => Effect.Effect<Option.Option<Invoice.Invoice>, StorageUnavailable>
    /** Any company's invoice by its secureId, for the payer's side where the checkout token authorizes. */
    readonly findBySecureId: (
      secureId: Invoice.SecureId
    ) => Effect.Effect<Option.Option<Invoice.Invoice>, StorageUnavailable>
    /** Any company's pix invoice by the txid of its charge. */
    readonly findByPixTxid: (txid: string) => Effect.Effect<Option.Option<Invoice.Invoice>, StorageUnavailable>
  }
>()("@fatura/application/InvoiceRepository") {}
