// Receivables as the tests write them, and what they add up to: for the tests of Receivable and of Moves.
import type { BusinessCalendar, Receivable } from "../../src/index.js"

export const receivable = (
  fields: Pick<Receivable.NewReceivable, "installment" | "amount" | "fee" | "balance" | "status"> & {
    readonly paymentDate: string
  }
): Receivable.NewReceivable => ({
  ...fields,
  netAmount: fields.amount - fields.fee,
  paymentDate: fields.paymentDate as BusinessCalendar.CalendarDate,
  originalPaymentDate: fields.paymentDate as BusinessCalendar.CalendarDate
})

export const sum = <A>(items: ReadonlyArray<A>, of: (item: A) => number) =>
  items.reduce((total, item) => total + of(item), 0)
export const netOf = (receivables: ReadonlyArray<Receivable.NewReceivable>) => sum(receivables, (r) => r.netAmount)
export const waitingOf = (receivables: ReadonlyArray<Receivable.NewReceivable>, installment: number) =>
  netOf(receivables.filter((r) => r.installment === installment && r.status === "waiting_funds"))
