// The ledger entries each money-moving event writes (SPEC 7.4). Entries are only ever appended; a balance is
// the sum of its entries, credits minus debits.
import { Schema } from "effect"
import type { Cents } from "./Cents.js"
import { type BalanceKind, balanceKindOf, type PaymentMethod } from "./PaymentMethod.js"

export const EntryType = Schema.Literals([
  "payment",
  "fee",
  "refund",
  "refund_reversal",
  "chargeback",
  "settlement",
  "withdrawal",
  "withdrawal_fee",
  "withdrawal_reversal"
])
export type EntryType = typeof EntryType.Type

export const Direction = Schema.Literals(["credit", "debit"])
export type Direction = typeof Direction.Type

/**
 * Where an entry's money is (SPEC 5.1, 7.4): `available` to withdraw or refund from now, or `waiting` until its
 * receivable falls due.
 */
export const Bucket = Schema.Literals(["available", "waiting"])
export type Bucket = typeof Bucket.Type

export interface Entry {
  readonly type: EntryType
  readonly direction: Direction
  readonly amount: Cents
  readonly balance: BalanceKind
  readonly bucket: Bucket
}

/** Paid: the amount comes in and the fee goes out of `bucket`, so it grows by the net amount. */
export const onPaid = (method: PaymentMethod, amount: Cents, fee: Cents, bucket: Bucket): ReadonlyArray<Entry> => {
  const balance = balanceKindOf(method)
  return [
    { type: "payment", direction: "credit", amount, balance, bucket },
    { type: "fee", direction: "debit", amount: fee, balance, bucket }
  ]
}

/**
 * What a refund or a chargeback takes back, `fromWaiting` out of the invoice's waiting receivables and
 * `fromAvailable` out of the available balance: one debit per bucket it takes from.
 */
export const onTakeBack = (
  type: "refund" | "chargeback",
  method: PaymentMethod,
  fromWaiting: Cents,
  fromAvailable: Cents
): ReadonlyArray<Entry> => {
  const balance = balanceKindOf(method)
  return [
    ...(fromWaiting > 0
      ? [{ type, direction: "debit", amount: fromWaiting, balance, bucket: "waiting" } as const]
      : []),
    ...(fromAvailable > 0
      ? [{ type, direction: "debit", amount: fromAvailable, balance, bucket: "available" } as const]
      : [])
  ]
}

/**
 * A refund the provider refused gives back what its request held, `toWaiting` into the waiting bucket and
 * `toAvailable` into the available one: the refund's debit was written when it was asked for, so that no other refund
 * could spend the same balance while the provider decided.
 */
export const onRefundRefused = (method: PaymentMethod, toWaiting: Cents, toAvailable: Cents): ReadonlyArray<Entry> => {
  const balance = balanceKindOf(method)
  return [
    ...(toWaiting > 0
      ? [{ type: "refund_reversal", direction: "credit", amount: toWaiting, balance, bucket: "waiting" } as const]
      : []),
    ...(toAvailable > 0
      ? [{ type: "refund_reversal", direction: "credit", amount: toAvailable, balance, bucket: "available" } as const]
      : [])
  ]
}

/**
 * A receivable of `net` falling due: its money leaves the waiting bucket for the available one (the other way for a
 * negative receivable, what a refund took back from an installment).
 */
export const onSettlement = (balance: BalanceKind, net: number): ReadonlyArray<Entry> => {
  if (net === 0) return []
  const amount = Math.abs(net) as Cents
  const [from, to]: [Bucket, Bucket] = net > 0 ? ["waiting", "available"] : ["available", "waiting"]
  return [
    { type: "settlement", direction: "debit", amount, balance, bucket: from },
    { type: "settlement", direction: "credit", amount, balance, bucket: to }
  ]
}

export const signed = (entry: Pick<Entry, "direction" | "amount">): number =>
  entry.direction === "credit" ? entry.amount : -entry.amount

/** The sum of one bucket of one balance after these entries. */
export const balanceOf = (
  entries: ReadonlyArray<Pick<Entry, "direction" | "amount" | "balance" | "bucket">>,
  balance: BalanceKind,
  bucket: Bucket
): number =>
  entries
    .filter((entry) => entry.balance === balance && entry.bucket === bucket)
    .reduce((sum, entry) => sum + signed(entry), 0)
