// The ledger entries each money-moving event writes (SPEC 7.4). Entries are only ever appended; a balance is
// the sum of its entries, credits minus debits.
import { Schema } from "effect"
import type { Cents } from "./Cents.js"
import { type BalanceKind, balanceKindOf, type PaymentMethod } from "./PaymentMethod.js"

export const EntryType = Schema.Literals(["payment", "fee", "refund", "refund_reversal", "chargeback"])
export type EntryType = typeof EntryType.Type

export const Direction = Schema.Literals(["credit", "debit"])
export type Direction = typeof Direction.Type

/**
 * Where an entry's money is (SPEC 5.1, 7.4): `available` to withdraw or refund from now, or `waiting` until its
 * receivable falls due. Every entry written so far is available: money is available the moment it is paid.
 */
export const Bucket = Schema.Literals(["available", "waiting"])
export type Bucket = typeof Bucket.Type

export interface Entry {
  readonly type: EntryType
  readonly direction: Direction
  readonly amount: Cents
  readonly balance: BalanceKind
}

/** Paid: the amount comes in and the fee goes out, so the balance grows by the net amount. */
export const onPaid = (method: PaymentMethod, amount: Cents, fee: Cents): ReadonlyArray<Entry> => {
  const balance = balanceKindOf(method)
  return [
    { type: "payment", direction: "credit", amount, balance },
    { type: "fee", direction: "debit", amount: fee, balance }
  ]
}

/** A refund gives the payer back what is refunded; the fee is not returned. */
export const onRefund = (method: PaymentMethod, refunded: Cents): ReadonlyArray<Entry> => [
  { type: "refund", direction: "debit", amount: refunded, balance: balanceKindOf(method) }
]

/**
 * A refund the provider refused gives back what its request held: the refund's debit was written when it was asked
 * for, so that no other refund could spend the same balance while the provider decided.
 */
export const onRefundRefused = (method: PaymentMethod, held: Cents): ReadonlyArray<Entry> => [
  { type: "refund_reversal", direction: "credit", amount: held, balance: balanceKindOf(method) }
]

/** A chargeback takes back what was not refunded yet; the balance may go negative. */
export const onChargeback = (method: PaymentMethod, notRefunded: Cents): ReadonlyArray<Entry> =>
  notRefunded === 0
    ? []
    : [{ type: "chargeback", direction: "debit", amount: notRefunded, balance: balanceKindOf(method) }]

export const signed = (entry: Pick<Entry, "direction" | "amount">): number =>
  entry.direction === "credit" ? entry.amount : -entry.amount

/** The balance of one kind after these entries. */
export const balanceOf = (entries: ReadonlyArray<Entry>, balance: BalanceKind): number =>
  entries.filter((entry) => entry.balance === balance).reduce((sum, entry) => sum + signed(entry), 0)
