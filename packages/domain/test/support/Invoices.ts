// Invoices as the tests of Moves move them, on a clock from a Monday: a pending one of any method, and one as it is
// after a transition.
import { Cents, FeePlan, type Moves, type PaymentMethod, Timestamp } from "../../src/index.js"

export type State = Moves.Movable

// Monday 2026-09-21, 11:13 in São Paulo: a business day, 30 days before Wednesday 2026-10-21.
export const start = Timestamp.fromEpochMicros(1_790_000_000_000_000n)
export const at = (step: number) => Timestamp.plusSeconds(start, step)

export const pendingInvoice = (method: PaymentMethod.PaymentMethod, amount: number): State => ({
  status: "pending",
  method,
  amount: Cents.make(amount),
  refundedAmount: Cents.make(0),
  paidAt: null,
  fee: FeePlan.split(FeePlan.defaultFeePlan, method, 1, Cents.make(amount)),
  pix: method === "pix" ? { qrCode: "", txid: "tx", expiresAt: start, endToEndId: null } : null,
  refunds: []
})

/** The invoice as it is after `transition`, as the history writer leaves it. */
export const applied = (invoice: State, transition: Moves.Transition): State => ({
  ...invoice,
  status: transition.status,
  paidAt: transition.paidAt,
  refundedAmount: transition.refundedAmount,
  pix:
    invoice.pix === null || transition.pixEndToEndId === undefined
      ? invoice.pix
      : { ...invoice.pix, endToEndId: transition.pixEndToEndId }
})
