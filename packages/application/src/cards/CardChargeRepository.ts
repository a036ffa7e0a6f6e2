// Port: the card charges, recorded before the acquirer is asked and closed with what became of them.
import type { Company, FeePlan, Invoice, Timestamp } from "@fatura/domain"
import { Context, type Effect, type Option } from "effect"
import type { NewInvoice } from "../invoices/InvoiceRepository.js"
import type { StorageUnavailable } from "../platform/Failures.js"

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

export class CardChargeRepository extends Context.Service<
  CardChargeRepository,
  {
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
  }
>()("@fatura/application/CardChargeRepository") {}
