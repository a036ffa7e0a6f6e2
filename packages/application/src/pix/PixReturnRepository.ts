// Port: the money a pix gives back: refunds waiting for the provider's answer, received pix that paid nothing and
// their returns, and how far the provider's received pix were reconciled.
import type { Cents, Company, Invoice, Timestamp } from "@fatura/domain"
import { Context, type Effect, type Option } from "effect"
import type { Scheduled } from "../invoices/InvoiceRepository.js"
import type { StorageUnavailable } from "../platform/Failures.js"

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
export interface PendingRefundRequest extends Scheduled {
  readonly amount: Cents.Cents
  readonly reason: string | null
  /** Ours, recorded before the provider is asked: it makes one return per id, so it can be asked again. */
  readonly returnId: string
  /**
   * Its debit and the receivables it takes back, written now: what the refund holds of the balance until the
   * provider answers.
   */
  readonly at: Timestamp.Timestamp
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

export class PixReturnRepository extends Context.Service<
  PixReturnRepository,
  {
    /** Records a pending refund of a locked invoice with its debit; returns the invoice as it now is. */
    readonly recordPendingRefund: (
      invoice: Invoice.Invoice,
      request: PendingRefundRequest
    ) => Effect.Effect<Invoice.Invoice, StorageUnavailable>
    readonly findPendingRefund: (returnId: string) => Effect.Effect<Option.Option<PendingRefund>, StorageUnavailable>
    /**
     * Closes a pending refund of a locked invoice: `succeeded` (the invoice's move is applied apart, with
     * `InvoiceRepository.applyTransition`), or `failed` with the reason and the entries and receivable that give back what it held.
     * Returns the invoice as it is after the close; none when the refund was no longer pending: another answer
     * closed it first.
     */
    readonly closePendingRefund: (
      invoice: Invoice.Invoice,
      refundId: number,
      outcome:
        | { readonly status: "succeeded" }
        | ({
            readonly status: "failed"
            readonly reason: string
          } & Scheduled),
      at: Timestamp.Timestamp
    ) => Effect.Effect<Option.Option<Invoice.Invoice>, StorageUnavailable>
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
>()("@fatura/application/PixReturnRepository") {}
