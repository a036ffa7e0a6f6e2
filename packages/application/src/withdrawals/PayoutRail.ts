// Port: the rail that pays a withdrawal into the company's bank account (SPEC 13.3) — the sandbox's, or a bank's.
// A payout is ours, by the withdrawal's id: the rail pays an id at most once and answers a repeat with what became of
// it, so a withdrawal whose answer was lost is asked about, never paid twice.
import { type Cents, type Invoice, Timestamp, Withdrawal } from "@fatura/domain"
import { Context, type Effect } from "effect"
import type { PayoutUnavailable } from "../platform/Failures.js"

export interface Payout {
  readonly id: string
  readonly mode: Invoice.Mode
  readonly amount: Cents.Cents
  readonly destination: Withdrawal.Destination
  /** When it was handed to the rail, as recorded before the call. */
  readonly sentAt: Timestamp.Timestamp
}

/** What became of a payout, as the rail says. */
export type PayoutState =
  | { readonly _tag: "Processing" }
  | {
      readonly _tag: "Paid"
      /** How it went: a pix, a TED; null for a credit in an account at the paying bank itself. */
      readonly rail: "pix" | "ted" | null
      /** A pix's end-to-end id; null for another rail. */
      readonly endToEndId: string | null
      readonly at: Timestamp.Timestamp
    }
  /** Not paid (`account_not_found`…), or paid and then returned by the receiving bank (`returned_by_bank`). */
  | { readonly _tag: "Failed"; readonly reason: string }
  /** The rail never received it: handing it over again pays it once. */
  | { readonly _tag: "Unknown" }

export class PayoutRail extends Context.Service<
  PayoutRail,
  {
    /** Fails when no rail pays withdrawals of `mode`: asked before a withdrawal is recorded. */
    readonly available: (mode: Invoice.Mode) => Effect.Effect<void, PayoutUnavailable>
    /** Hands a payout over; a repeat of an id pays nothing more and answers as `status` does. */
    readonly send: (payout: Payout) => Effect.Effect<PayoutState, PayoutUnavailable>
    /** What became of a payout handed over before. */
    readonly status: (payout: Payout) => Effect.Effect<PayoutState, PayoutUnavailable>
  }
>()("@fatura/application/PayoutRail") {}

/**
 * What the sandbox's rail answers for `payout` at the instant `nowMillis` (Withdrawal.sandboxAnswer): from the payout
 * and the clock alone, so that any process answers alike and a repeat of an id pays nothing more.
 */
export const sandboxState = (payout: Payout, nowMillis: number): PayoutState => {
  const answer = Withdrawal.sandboxAnswer(
    payout.destination.bank.account,
    (nowMillis - Timestamp.toEpochMillis(payout.sentAt)) / 1000
  )
  if (answer === "processing") return { _tag: "Processing" }
  if (answer !== "paid") return { _tag: "Failed", reason: answer }
  const at = Timestamp.plusSeconds(payout.sentAt, Withdrawal.sandboxPaysAfter)
  return { _tag: "Paid", rail: "pix", endToEndId: Withdrawal.sandboxEndToEndId(payout.id, at), at }
}
