// Receivables (SPEC 13.1): what each payment will pay the company, and from which day. A payment is scheduled into
// receivables; a refund or a chargeback takes back from them as receivables of negative amount; a receivable whose day
// comes moves its money from the waiting bucket to the available one.
import { Schema } from "effect"
import { type CalendarDate, onBusinessDay, plusDays, saoPauloDate } from "./BusinessCalendar.js"
import type { Cents } from "./Cents.js"
import type { FeePlan } from "./FeePlan.js"
import * as Ledger from "./Ledger.js"
import { type BalanceKind, balanceKindOf, type PaymentMethod } from "./PaymentMethod.js"
import type { Timestamp } from "./Timestamp.js"

/** `waiting_funds` until its day, then `available`; `anticipated` when the company had it paid early (SPEC 14.3). */
export const Status = Schema.Literals(["waiting_funds", "available", "anticipated"])
export type Status = typeof Status.Type

/**
 * A receivable not yet stored. Amounts are signed: what a refund or a chargeback takes back is a receivable of
 * negative amount, dated like the installment it takes from, so that a schedule is always the sum of its rows.
 */
export interface NewReceivable {
  readonly installment: number
  readonly amount: number
  readonly fee: number
  readonly netAmount: number
  readonly balance: BalanceKind
  readonly status: Status
  readonly paymentDate: CalendarDate
  readonly originalPaymentDate: CalendarDate
}

export interface Receivable extends NewReceivable {
  readonly id: number
}

/** The receivables of one move with the ledger entries they are written with. */
export interface Scheduled {
  readonly receivables: ReadonlyArray<NewReceivable>
  readonly movements: ReadonlyArray<Ledger.Entry>
}

/**
 * The day installment `k` of a payment made on `paidOn` becomes available: `days` (the fee plan's, SPEC 13.1) times
 * `k` later, moved to the next business day; the very day of payment, whatever day it is, when that is 0 days.
 */
export const dueDate = (paidOn: CalendarDate, days: number, k: number): CalendarDate =>
  days * k === 0 ? paidOn : onBusinessDay(plusDays(paidOn, days * k))

const max = (a: CalendarDate, b: CalendarDate): CalendarDate => (a >= b ? a : b)

/** `total` over `n` parts: each ⌊total / n⌋, the first also the remainder, so that they add up exactly. */
export const part = (total: number, n: number, k: number): number => Math.floor(total / n) + (k === 1 ? total % n : 0)

/**
 * What a payment of `amount`, with `fee`, made at `paidAt` will pay: one receivable (pix, boleto) or one per card
 * installment, each waiting until its day or available when that is the day of payment; and the payment's ledger
 * entries, the amount credited and the fee debited in the bucket of the receivables they belong to. `creditedOn`, when
 * a bank said on which day it credits the payment (a boleto paid at the bank), is that day instead of the plan's.
 */
export const schedule = (
  plan: Pick<FeePlan, "settlementDays">,
  payment: {
    readonly method: PaymentMethod
    readonly installments: number
    readonly amount: Cents
    readonly fee: Cents
    readonly paidAt: Timestamp
    readonly creditedOn?: CalendarDate | undefined
  }
): Scheduled => {
  const paidOn = saoPauloDate(payment.paidAt)
  const creditedOn = payment.creditedOn === undefined ? undefined : max(paidOn, payment.creditedOn)
  const n = payment.method === "credit_card" ? Math.max(1, payment.installments) : 1
  const days = plan.settlementDays[payment.method]
  const balance = balanceKindOf(payment.method)
  const receivables = Array.from({ length: n }, (_, index): NewReceivable => {
    const k = index + 1
    const amount = part(payment.amount, n, k)
    const fee = part(payment.fee, n, k)
    const paymentDate = creditedOn ?? dueDate(paidOn, days, k)
    return {
      installment: k,
      amount,
      fee,
      netAmount: amount - fee,
      balance,
      status: paymentDate <= paidOn ? "available" : "waiting_funds",
      paymentDate,
      originalPaymentDate: paymentDate
    }
  })
  const movements = (["available", "waiting"] as const).flatMap((bucket) => {
    const inBucket = receivables.filter((receivable) => bucketOf(receivable.status) === bucket)
    if (inBucket.length === 0) return []
    const sum = (field: "amount" | "fee") => inBucket.reduce((total, receivable) => total + receivable[field], 0)
    return Ledger.onPaid(payment.method, sum("amount") as Cents, sum("fee") as Cents, bucket)
  })
  return { receivables, movements }
}

/** Where a receivable's money is in the ledger. */
export const bucketOf = (status: Status): Ledger.Bucket => (status === "waiting_funds" ? "waiting" : "available")

/** What an invoice's receivables of one installment still wait to pay: their net, less what was taken back. */
const waitingOf = (receivables: ReadonlyArray<NewReceivable>, installment: number): number =>
  receivables
    .filter((receivable) => receivable.installment === installment && receivable.status === "waiting_funds")
    .reduce((sum, receivable) => sum + receivable.netAmount, 0)

/** How a refund or a chargeback of an invoice takes its amount back, and from where. */
export interface TakeBack extends Scheduled {
  /** What the invoice's receivables waited for before: with the available balance, what a refund may take back. */
  readonly waiting: Cents
  /** Out of the invoice's waiting receivables. */
  readonly fromWaiting: Cents
  /** Out of the available balance. */
  readonly fromAvailable: Cents
}

/**
 * Takes `amount` back from an invoice (SPEC 7.4): out of its waiting receivables first, latest installment first, each
 * as a waiting receivable of negative amount on that installment's day; the rest out of the available balance, as an
 * available negative receivable dated `at`'s day. Its ledger entries debit each bucket what it gives.
 */
export const takeBack = (
  type: "refund" | "chargeback",
  method: PaymentMethod,
  invoiceReceivables: ReadonlyArray<NewReceivable>,
  amount: Cents,
  at: Timestamp
): TakeBack => {
  const installments = [...new Set(invoiceReceivables.map((receivable) => receivable.installment))].sort(
    (a, b) => b - a
  )
  const balance = balanceKindOf(method)
  const taken: Array<NewReceivable> = []
  let left: number = amount
  for (const installment of installments) {
    const take = Math.min(left, Math.max(0, waitingOf(invoiceReceivables, installment)))
    if (take === 0) continue
    const paymentDate = invoiceReceivables.find(
      (receivable) => receivable.installment === installment && receivable.status === "waiting_funds"
    )!.paymentDate
    taken.push(adjustment(installment, -take, balance, "waiting_funds", paymentDate))
    left -= take
  }
  const waiting = installments.reduce(
    (sum, installment) => sum + Math.max(0, waitingOf(invoiceReceivables, installment)),
    0
  ) as Cents
  const fromWaiting = (amount - left) as Cents
  const fromAvailable = left as Cents
  const today = saoPauloDate(at)
  const lastAvailable = Math.max(
    1,
    ...invoiceReceivables.filter((receivable) => receivable.status !== "waiting_funds").map((r) => r.installment)
  )
  return {
    waiting,
    fromWaiting,
    fromAvailable,
    receivables:
      fromAvailable > 0 ? [...taken, adjustment(lastAvailable, -fromAvailable, balance, "available", today)] : taken,
    movements: Ledger.onTakeBack(type, method, fromWaiting, fromAvailable)
  }
}

/** What a refund or a chargeback takes back (`net` below 0), or a refused refund gives back, of an installment. */
const adjustment = (
  installment: number,
  net: number,
  balance: BalanceKind,
  status: Status,
  paymentDate: CalendarDate
): NewReceivable => ({
  installment,
  amount: net,
  fee: 0,
  netAmount: net,
  balance,
  status,
  paymentDate,
  originalPaymentDate: paymentDate
})

/**
 * What a refused refund gives back of the `held` it took (Ledger.onRefundRefused): first to the installments whose
 * waiting receivables it took from and that still wait (earliest first, the reverse of `takeBack`), as waiting
 * receivables on their days; the rest, which it took from the available balance or from installments that have since
 * fallen due, as an available receivable dated `at`'s day.
 */
export const giveBack = (
  method: PaymentMethod,
  invoiceReceivables: ReadonlyArray<NewReceivable>,
  held: Cents,
  at: Timestamp
): Scheduled => {
  const balance = balanceKindOf(method)
  const given: Array<NewReceivable> = []
  let left: number = held
  for (const installment of [...new Set(invoiceReceivables.map((receivable) => receivable.installment))].sort(
    (a, b) => a - b
  )) {
    const takenBack = invoiceReceivables.filter(
      (receivable) =>
        receivable.installment === installment && receivable.status === "waiting_funds" && receivable.netAmount < 0
    )
    const give = Math.min(left, -takenBack.reduce((sum, receivable) => sum + receivable.netAmount, 0))
    if (give <= 0) continue
    given.push(adjustment(installment, give, balance, "waiting_funds", takenBack[0]!.paymentDate))
    left -= give
  }
  const toWaiting = (held - left) as Cents
  const today = saoPauloDate(at)
  return {
    receivables: left > 0 ? [...given, adjustment(1, left, balance, "available", today)] : given,
    movements: Ledger.onRefundRefused(method, toWaiting, left as Cents)
  }
}

/** A waiting receivable made available, and the ledger entries that move its money (SPEC 7.4). */
export interface Settlement {
  readonly receivable: Receivable
  /** Its day: its own when it falls due, earlier when released (the sandbox's release). */
  readonly paymentDate: CalendarDate
  readonly movements: ReadonlyArray<Ledger.Entry>
}

/** Makes a waiting receivable available on `on` (its own day, or the day it is released early). */
export const settle = (receivable: Receivable, on: CalendarDate): Settlement => ({
  receivable,
  paymentDate: on < receivable.paymentDate ? on : receivable.paymentDate,
  movements: Ledger.onSettlement(receivable.balance, receivable.netAmount)
})

/** Whether a receivable waits for a day that has come by `today`. */
export const isDue = (receivable: Pick<NewReceivable, "status" | "paymentDate">, today: CalendarDate): boolean =>
  receivable.status === "waiting_funds" && receivable.paymentDate <= today
