// A company's withdrawals to its own bank account (SPEC 13.3): how one is drawn from the available balances with its
// fee, the one diagram of its statuses, and what each move writes to the ledger.
import { Result, Schema } from "effect"
import type { BankAccount } from "./BankAccount.js"
import type { Cents } from "./Cents.js"
import type { CompanyId } from "./Company.js"
import type { Mode } from "./Invoice.js"
import type * as Ledger from "./Ledger.js"
import type { BalanceKind } from "./PaymentMethod.js"
import type { Timestamp } from "./Timestamp.js"

export const WithdrawalStatus = Schema.Literals(["pending", "processing", "paid", "failed", "canceled"])
export type WithdrawalStatus = typeof WithdrawalStatus.Type

/** The event each status records (SPEC 13.3): a new withdrawal's is `withdrawal.created`. */
export const eventTypes = [
  "withdrawal.created",
  "withdrawal.processing",
  "withdrawal.paid",
  "withdrawal.failed",
  "withdrawal.canceled"
] as const
export type EventType = (typeof eventTypes)[number]

export const eventType = (status: WithdrawalStatus): EventType =>
  status === "pending" ? "withdrawal.created" : `withdrawal.${status}`

/** What moves a withdrawal: handed to the rail, paid by the bank, failed (or returned by it), canceled. */
export const WithdrawalAction = Schema.Literals(["send", "pay", "fail", "cancel"])
export type WithdrawalAction = typeof WithdrawalAction.Type

const verbs: { readonly [A in WithdrawalAction]: string } = {
  send: "send",
  pay: "pay",
  fail: "fail",
  cancel: "cancel"
}

export class InvalidWithdrawalTransition extends Schema.TaggedError<InvalidWithdrawalTransition>()(
  "InvalidWithdrawalTransition",
  { from: WithdrawalStatus, action: WithdrawalAction }
) {
  override get message(): string {
    return `cannot ${verbs[this.action]} a withdrawal that is ${this.from}`
  }
}

// A paid withdrawal may still fail: the receiving bank returns it.
const moves: { readonly [S in WithdrawalStatus]: { readonly [A in WithdrawalAction]?: WithdrawalStatus } } = {
  pending: { send: "processing", cancel: "canceled" },
  processing: { pay: "paid", fail: "failed" },
  paid: { fail: "failed" },
  failed: {},
  canceled: {}
}

export const transition = (
  from: WithdrawalStatus,
  action: WithdrawalAction
): Result.Result<WithdrawalStatus, InvalidWithdrawalTransition> => {
  const to = moves[from][action]
  return to === undefined ? Result.fail(new InvalidWithdrawalTransition({ from, action })) : Result.succeed(to)
}

/** The smallest amount a withdrawal takes out: R$ 1,00. */
export const minimumAmount = 100

/** The order a withdrawal that names no balance draws from them. */
export const drawOrder: ReadonlyArray<BalanceKind> = ["pix", "bank_slip", "card"]

/** How much of a withdrawal's amount and fee came out of one balance. */
export interface Source {
  readonly balance: BalanceKind
  readonly amount: Cents
}

export class InsufficientFunds extends Schema.TaggedError<InsufficientFunds>()("InsufficientFunds", {
  available: Schema.Number,
  required: Schema.Number
}) {
  override get message(): string {
    return `the available balance (${this.available}) does not cover the withdrawal and its fee (${this.required})`
  }
}

/**
 * Draws `amount` and `fee` from the `available` balances: from `balance` alone when one is named, else from each in
 * `drawOrder`, as much as it holds, until they are covered; refused when they are not.
 */
export const draw = (
  available: { readonly [K in BalanceKind]: number },
  amount: Cents,
  fee: Cents,
  balance: BalanceKind | null
): Result.Result<ReadonlyArray<Source>, InsufficientFunds> => {
  const required = amount + fee
  const from = balance === null ? drawOrder : [balance]
  const sources: Array<Source> = []
  let left = required
  for (const kind of from) {
    const take = Math.min(left, Math.max(0, available[kind]))
    if (take === 0) continue
    sources.push({ balance: kind, amount: take as Cents })
    left -= take
  }
  if (left > 0) {
    const held = from.reduce((sum, kind) => sum + Math.max(0, available[kind]), 0)
    return Result.fail(new InsufficientFunds({ available: held, required }))
  }
  return Result.succeed(sources)
}

/**
 * What a withdrawal debits, of each balance it draws from: its fee first (`withdrawal_fee`), then its amount
 * (`withdrawal`), both out of the available bucket.
 */
export const onRequested = (sources: ReadonlyArray<Source>, fee: Cents): ReadonlyArray<Ledger.Entry> => {
  let feeLeft: number = fee
  return sources.flatMap((source) => {
    const feePart = Math.min(feeLeft, source.amount)
    feeLeft -= feePart
    const amountPart = source.amount - feePart
    return [
      ...(feePart > 0
        ? [{ type: "withdrawal_fee", direction: "debit", amount: feePart as Cents, balance: source.balance } as const]
        : []),
      ...(amountPart > 0
        ? [{ type: "withdrawal", direction: "debit", amount: amountPart as Cents, balance: source.balance } as const]
        : [])
    ].map((entry) => ({ ...entry, bucket: "available" as const }))
  })
}

/** A failed or canceled withdrawal gives back what it drew, to each balance it drew from: one credit each. */
export const onReversed = (sources: ReadonlyArray<Source>): ReadonlyArray<Ledger.Entry> =>
  sources.map((source) => ({
    type: "withdrawal_reversal",
    direction: "credit",
    amount: source.amount,
    balance: source.balance,
    bucket: "available"
  }))

/** Where a withdrawal goes: the company's bank account, and its holder, as they were when it was asked for. */
export interface Destination {
  readonly bank: BankAccount
  readonly holderName: string
  /** The company's CNPJ, digits (or the 2026 alphanumeric form) without formatting. */
  readonly holderDocument: string
}

export interface Withdrawal {
  /** `wd_` and a UUID. */
  readonly id: string
  readonly companyId: CompanyId
  readonly mode: Mode
  readonly amount: Cents
  readonly fee: Cents
  readonly status: WithdrawalStatus
  readonly sources: ReadonlyArray<Source>
  readonly destination: Destination
  /** How the rail paid it, once it says. */
  readonly rail: "pix" | "ted" | null
  readonly endToEndId: string | null
  readonly failureReason: string | null
  readonly createdAt: Timestamp
  readonly updatedAt: Timestamp
  /** When it was handed to the rail. */
  readonly sentAt: Timestamp | null
  readonly paidAt: Timestamp | null
}

/** A move of a withdrawal: its new status and the entries it writes. */
export interface Move {
  readonly status: WithdrawalStatus
  readonly movements: ReadonlyArray<Ledger.Entry>
}

/**
 * Moves a withdrawal (`sources` what it drew) by `action`: a failure or a cancel gives back what it drew; sending and
 * paying write nothing to the ledger, its money having left the balances when it was requested.
 */
export const move = (
  withdrawal: { readonly status: WithdrawalStatus; readonly sources: ReadonlyArray<Source> },
  action: WithdrawalAction
): Result.Result<Move, InvalidWithdrawalTransition> =>
  Result.map(transition(withdrawal.status, action), (status) => ({
    status,
    movements: status === "failed" || status === "canceled" ? onReversed(withdrawal.sources) : []
  }))

/** How the sandbox's rail answers for a payout (SPEC 13.3), the payout handed over `seconds` ago. */
export type SandboxAnswer = "processing" | "paid" | "account_not_found" | "returned_by_bank"

/** Seconds the sandbox's rail takes to pay, and, for an account that returns, to return after. */
export const sandboxPaysAfter = 3
export const sandboxReturnsAfter = 8

/**
 * The sandbox's test accounts: one ending in `0000` does not exist (`account_not_found`), one ending in `1111` is paid
 * and then returned by its bank; any other is paid, a few seconds after it is handed over.
 */
export const sandboxAnswer = (account: string, seconds: number): SandboxAnswer => {
  if (seconds < sandboxPaysAfter) return "processing"
  if (account.endsWith("0000")) return "account_not_found"
  if (account.endsWith("1111") && seconds >= sandboxReturnsAfter) return "returned_by_bank"
  return "paid"
}

/**
 * The end-to-end id the sandbox's rail gives a payout, as a pix's: `E`, the payer's ISPB, the minute it was paid
 * (UTC, `yyyyMMddHHmm`) and the first 11 hexadecimal digits of the withdrawal's UUID, so that asking again gives the
 * same one.
 */
export const sandboxEndToEndId = (id: string, paidAt: Timestamp): string =>
  `E00000000${paidAt.slice(0, 16).replace(/[-T:]/g, "")}${id
    .replace(/^wd_/, "")
    .replace(/[^0-9a-f]/gi, "")
    .slice(0, 11)
    .toUpperCase()}`
