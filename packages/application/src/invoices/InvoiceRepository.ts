// Port: invoices with their clients, timelines and events.
import type {
  Cents,
  Company,
  Document,
  FeePlan,
  Invoice,
  InvoiceStatus,
  Moves,
  PaymentMethod,
  Timestamp
} from "@fatura/domain"
import { Context, type Effect, type Option } from "effect"
import type { StorageUnavailable } from "../platform/Failures.js"

export type NewInvoice = Omit<Invoice.Invoice, "id" | "client" | "cardAssociate" | "timeline" | "movements" | "refunds">

export type NewMovement = Omit<Invoice.Movement, "id" | "createdAt">

export interface CardToAssociate {
  readonly companyId: Company.CompanyId
  readonly clientId: Invoice.ClientId
  readonly brand: string
  readonly firstDigits: string
  readonly lastDigits: string
  readonly expirationMonth: number
  readonly expirationYear: number
  readonly now: Timestamp.Timestamp
}

export type InvoiceReference =
  | { readonly _tag: "SecureId"; readonly secureId: Invoice.SecureId }
  | { readonly _tag: "Id"; readonly id: Invoice.InvoiceId }

/** A payer's contact data; clients are kept per company and mode, like everything else. */
export interface ClientContact {
  readonly companyId: Company.CompanyId
  readonly mode: Invoice.Mode
  readonly document: Document.Document
  readonly name: string
  readonly email: string
  readonly phone: string | null
  readonly now: Timestamp.Timestamp
}

/** A move of an invoice to a new status, with what it writes besides the status (SPEC 7.1, 7.4): the domain's. */
export type Transition = Moves.Transition

/** A received pix that paid nothing, and its return to the payer, whole. */
export interface PixRejection {
  readonly endToEndId: string
  readonly invoiceId: Invoice.InvoiceId
  readonly amount: Cents.Cents
  readonly returnId: string
  readonly returnState: "pending" | "returned" | "refused"
  readonly createdAt: Timestamp.Timestamp
}

export interface NewPixRejection {
  readonly endToEndId: string
  readonly invoiceId: Invoice.InvoiceId
  readonly amount: Cents.Cents
  readonly reason: string
  readonly returnId: string
  readonly at: Timestamp.Timestamp
}

/** A refund asked of a provider that answers later (a pix return), as recorded when asked. */
export interface PendingRefundRequest {
  readonly amount: Cents.Cents
  readonly reason: string | null
  /** Ours, recorded before the provider is asked: it makes one return per id, so it can be asked again. */
  readonly returnId: string
  readonly at: Timestamp.Timestamp
  /** Its debit, written now: what the refund holds of the balance until the provider answers. */
  readonly movements: ReadonlyArray<NewMovement>
}

/** A refund waiting for its provider, with what is needed to ask about it. */
export interface PendingRefund {
  readonly id: number
  readonly invoiceId: Invoice.InvoiceId
  readonly companyId: Company.CompanyId
  readonly mode: Invoice.Mode
  readonly amount: Cents.Cents
  readonly returnId: string
  /** The pix it returns part of. */
  readonly endToEndId: string
  readonly status: Invoice.RefundStatus
  readonly createdAt: Timestamp.Timestamp
}

/** What a card charge fixes on its invoice when it settles, known before the acquirer is asked. */
export interface CardChargeTerms {
  readonly installments: number
  readonly fee: FeePlan.FeeSplit
  readonly card: Invoice.CardDetails
  readonly cardAssociate: Invoice.CardAssociate
}

/** The invoice a card charge made while creating it is to create when the charge settles, as it is before. */
export interface CardChargeDraft {
  readonly invoice: NewInvoice
  readonly client: Invoice.Client
}

/**
 * A card charge recorded before the acquirer is called (`requested`), and what became of it. Its reference is the
 * acquirer's idempotency key; the card itself is never part of it. A charge of an existing invoice names it; one made
 * while creating an invoice carries the invoice to create (`draft`) until it settles, and then names the invoice, if
 * one was created. A charge answered when its invoice was no longer pending is `late`: it paid nothing, and if the
 * acquirer approved it, it is given back to the card (`reversal`), recorded before the acquirer is asked.
 */
export interface CardCharge {
  readonly reference: string
  readonly invoiceId: Invoice.InvoiceId | null
  readonly companyId: Company.CompanyId
  readonly mode: Invoice.Mode
  readonly state: "requested" | "approved" | "refused" | "void" | "late"
  readonly terms: CardChargeTerms
  readonly draft: CardChargeDraft | null
  readonly requestedAt: Timestamp.Timestamp
  /** For a late approved charge: `requested` until the acquirer says how it gave the charge back. */
  readonly reversal: "requested" | "voided" | "refunded" | null
}

/** The charge of a pending card invoice: its outcome and what it fixes. */
export interface CardSettlement {
  readonly status: "paid" | "refused"
  readonly refusedReason: string | null
  readonly installments: number
  readonly fee: FeePlan.FeeSplit
  readonly card: Invoice.CardDetails
  readonly cardAssociate: Invoice.CardAssociate
  readonly at: Timestamp.Timestamp
  readonly movements: ReadonlyArray<NewMovement>
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

export interface NewEvent {
  readonly id: string
  /** Where the event is to be posted; a delivery is queued with the event when there is one. */
  readonly postbackUrl: string | null
  readonly companyId: Company.CompanyId
  readonly invoiceId: Invoice.InvoiceId
  readonly type: string
  readonly livemode: boolean
  readonly data: unknown
  readonly createdAt: Timestamp.Timestamp
  /** Why it happened, when its type alone does not say. */
  readonly reason?: string | undefined
}

export class InvoiceRepository extends Context.Service<
  InvoiceRepository,
  {
    /** Creates or refreshes the company's client record for this document. */
    readonly upsertClient: (contact: ClientContact) => Effect.Effect<Invoice.Client, StorageUnavailable>
    /** The card reference of this client for this card, created on its first use. */
    readonly associateCard: (card: CardToAssociate) => Effect.Effect<Invoice.CardAssociate, StorageUnavailable>
    /** A new, never repeated bank slip number. */
    readonly nextOurNumber: Effect.Effect<string, StorageUnavailable>
    /** Inserts the invoice with the statuses it went through and its ledger entries; returns it as stored. */
    readonly insert: (
      invoice: NewInvoice,
      client: Invoice.Client,
      cardAssociate: Invoice.CardAssociate | null,
      timeline: ReadonlyArray<{ readonly status: InvoiceStatus.InvoiceStatus; readonly event: string }>,
      movements: ReadonlyArray<NewMovement>
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
    /**
     * Records a charge about to be sent to the acquirer: of a locked pending card invoice with none in flight
     * (`chargeInFlight`), or of the invoice in its draft.
     */
    readonly recordCardCharge: (
      charge: Omit<CardCharge, "state" | "reversal">
    ) => Effect.Effect<void, StorageUnavailable>
    /** The invoice's charge still waiting for its answer, if any. */
    readonly chargeInFlight: (
      invoiceId: Invoice.InvoiceId
    ) => Effect.Effect<Option.Option<CardCharge>, StorageUnavailable>
    readonly findCardCharge: (reference: string) => Effect.Effect<Option.Option<CardCharge>, StorageUnavailable>
    /** The charge, locked until the enclosing transaction ends; taken after its invoice's locks, if it has one. */
    readonly lockCardCharge: (reference: string) => Effect.Effect<Option.Option<CardCharge>, StorageUnavailable>
    /**
     * Closes a locked requested charge with what became of it, naming the invoice it settled, if any; the invoice it
     * was to create (`draft`) is dropped, created or not.
     */
    readonly closeCardCharge: (
      reference: string,
      state: "approved" | "refused" | "void",
      invoiceId: Invoice.InvoiceId | null,
      at: Timestamp.Timestamp
    ) => Effect.Effect<void, StorageUnavailable>
    /**
     * Closes a locked requested charge as `late`: its answer came when its invoice was no longer pending. An
     * approved one is to be given back: its reversal is `requested` from now on.
     */
    readonly closeLateCardCharge: (
      reference: string,
      approved: boolean,
      at: Timestamp.Timestamp
    ) => Effect.Effect<void, StorageUnavailable>
    /** Records how a late charge was given back; nothing when that was recorded already. */
    readonly closeCardChargeReversal: (
      reference: string,
      reversal: "voided" | "refunded",
      at: Timestamp.Timestamp
    ) => Effect.Effect<void, StorageUnavailable>
    /** Up to `limit` late charges whose reversal is still requested since before `closedBefore`, oldest first. */
    readonly staleCardChargeReversals: (
      closedBefore: Timestamp.Timestamp,
      limit: number
    ) => Effect.Effect<ReadonlyArray<CardCharge>, StorageUnavailable>
    /** Up to `limit` charges still requested since before `requestedBefore`, oldest first. */
    readonly staleCardCharges: (
      requestedBefore: Timestamp.Timestamp,
      limit: number
    ) => Effect.Effect<ReadonlyArray<CardCharge>, StorageUnavailable>
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
    readonly recordEvent: (event: NewEvent) => Effect.Effect<void, StorageUnavailable>
    /** Any company's pix invoice by the txid of its charge. */
    readonly findByPixTxid: (txid: string) => Effect.Effect<Option.Option<Invoice.Invoice>, StorageUnavailable>
    /** Records a pending refund of a locked invoice with its debit; returns the refund's id. */
    readonly recordPendingRefund: (
      invoice: Invoice.Invoice,
      request: PendingRefundRequest
    ) => Effect.Effect<number, StorageUnavailable>
    readonly findPendingRefund: (returnId: string) => Effect.Effect<Option.Option<PendingRefund>, StorageUnavailable>
    /**
     * Closes a pending refund of a locked invoice: `succeeded` (the invoice's move is applied apart, with
     * `applyTransition`), or `failed` with the reason and the entries that give back what it held. False when it was
     * no longer pending: another answer closed it first.
     */
    readonly closePendingRefund: (
      invoice: Invoice.Invoice,
      refundId: number,
      outcome:
        | { readonly status: "succeeded" }
        | {
            readonly status: "failed"
            readonly reason: string
            readonly movements: ReadonlyArray<NewMovement>
          },
      at: Timestamp.Timestamp
    ) => Effect.Effect<boolean, StorageUnavailable>
    /** Up to `limit` refunds pending since before `createdBefore`, oldest first. */
    readonly stalePendingRefunds: (
      createdBefore: Timestamp.Timestamp,
      limit: number
    ) => Effect.Effect<ReadonlyArray<PendingRefund>, StorageUnavailable>
    /** Records that a received pix did not pay the invoice, to be returned; false when it was recorded already. */
    readonly recordPixRejection: (rejection: NewPixRejection) => Effect.Effect<boolean, StorageUnavailable>
    /** Closes the return of a rejected pix with how it ended; nothing when it was closed already. */
    readonly closePixRejection: (
      returnId: string,
      state: "returned" | "refused",
      at: Timestamp.Timestamp
    ) => Effect.Effect<void, StorageUnavailable>
    /**
     * The returns still pending among `returnIds` — of refunds, and of rejected pix — read in one round trip
     * whatever their number.
     */
    readonly findPendingReturns: (
      returnIds: ReadonlyArray<string>
    ) => Effect.Effect<
      { readonly refunds: ReadonlyArray<PendingRefund>; readonly rejections: ReadonlyArray<PixRejection> },
      StorageUnavailable
    >
    /** Up to `limit` rejected pix whose return is still pending since before `createdBefore`, oldest first. */
    readonly stalePixRejections: (
      createdBefore: Timestamp.Timestamp,
      limit: number
    ) => Effect.Effect<ReadonlyArray<PixRejection>, StorageUnavailable>
    /** Up to where the pix provider's received pix were listed by the last reconciliation; none before the first. */
    readonly pixListedUntil: Effect.Effect<Option.Option<Timestamp.Timestamp>, StorageUnavailable>
    readonly setPixListedUntil: (until: Timestamp.Timestamp) => Effect.Effect<void, StorageUnavailable>
  }
>()("@fatura/application/InvoiceRepository") {}
