// An invoice as it is after a write of its history: built from the invoice as it was locked and what the history
// writer (InvoiceStatements.writeHistory) wrote, with the ids its rows got; never read back.
import type { CardSettlement, Transition } from "@fatura/application"
import type { Invoice, Timestamp } from "@fatura/domain"
import type { Written } from "./InvoiceStatements.js"

/** A locked invoice after `transition`. */
export const afterTransition = (
  invoice: Invoice.Invoice,
  transition: Transition,
  written: Written
): Invoice.Invoice => ({
  ...invoice,
  status: transition.status,
  updatedAt: transition.at,
  paidAt: transition.paidAt,
  refundedAmount: transition.refundedAmount,
  pix:
    invoice.pix === null || transition.pixEndToEndId == null
      ? invoice.pix
      : { ...invoice.pix, endToEndId: transition.pixEndToEndId },
  timeline: [
    ...invoice.timeline,
    { status: transition.status, event: transition.event, createdAt: transition.at, detail: transition.detail ?? null }
  ],
  movements: [...invoice.movements, ...written.movements],
  refunds: written.refund === null ? invoice.refunds : [...invoice.refunds, written.refund]
})

/** A locked pending card invoice after its charge's `settlement`. */
export const afterCardSettlement = (
  invoice: Invoice.Invoice,
  settlement: CardSettlement,
  written: Written
): Invoice.Invoice => ({
  ...invoice,
  status: settlement.status,
  refusedReason: settlement.refusedReason,
  paidAt: settlement.status === "paid" ? settlement.at : null,
  installments: settlement.installments,
  fee: settlement.fee,
  card: settlement.card,
  cardAssociate: settlement.cardAssociate,
  updatedAt: settlement.at,
  timeline: [
    ...invoice.timeline,
    { status: settlement.status, event: settlement.event, createdAt: settlement.at, detail: null }
  ],
  movements: [...invoice.movements, ...written.movements]
})

/**
 * A locked invoice after the close of its pending refund `refundId`; a failed one with what was written at `at` to
 * give back what the refund held.
 */
export const afterReturnClosed = (
  invoice: Invoice.Invoice,
  refundId: number,
  outcome: { readonly status: "succeeded" } | { readonly status: "failed"; readonly reason: string },
  failed?: { readonly at: Timestamp.Timestamp; readonly written: Written }
): Invoice.Invoice => {
  const refunds = invoice.refunds.map((refund) =>
    refund.id === refundId
      ? { ...refund, status: outcome.status, failureReason: outcome.status === "failed" ? outcome.reason : null }
      : refund
  )
  return failed === undefined
    ? { ...invoice, refunds }
    : {
        ...invoice,
        updatedAt: failed.at,
        movements: [...invoice.movements, ...failed.written.movements],
        refunds
      }
}

/** A locked invoice after a refund `refund` asked of its pix provider, pending, with the debit that holds it. */
export const afterPendingRefund = (
  invoice: Invoice.Invoice,
  refund: Pick<Invoice.RefundRecord, "id" | "amount" | "reason"> & { readonly at: Timestamp.Timestamp },
  written: Written
): Invoice.Invoice => ({
  ...invoice,
  updatedAt: refund.at,
  movements: [...invoice.movements, ...written.movements],
  refunds: [
    ...invoice.refunds,
    {
      id: refund.id,
      amount: refund.amount,
      reason: refund.reason,
      status: "pending",
      failureReason: null,
      createdAt: refund.at
    }
  ]
})
