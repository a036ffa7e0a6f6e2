// Port: the card acquirer that authorizes and captures a card payment.
import type { Cents, Invoice } from "@fatura/domain"
import { Context, type Effect, type Option } from "effect"
import type { AcquirerUnavailable } from "../platform/Failures.js"

export const RefusedReasons = [
  "card_declined",
  "insufficient_funds",
  "expired_card",
  "authentication_required",
  "processing_error"
] as const
export type RefusedReason = (typeof RefusedReasons)[number]

export type ThreeDSecureOutcome = "authenticated" | "attempted" | "unauthenticated"

export interface CardData {
  readonly number: string
  readonly holderName: string
  readonly expirationMonth: number
  readonly expirationYear: number
  readonly securityCode: string
  readonly brand: string
}

/** The card as sent by the payer, or as the acquirer keeps it behind a tokenization (SPEC 4.7). */
export type CardSource =
  | ({ readonly _tag: "Card" } & CardData)
  | { readonly _tag: "Vaulted"; readonly reference: string; readonly brand: string }

export interface CardChargeRequest {
  /**
   * Ours, recorded before the call: the acquirer charges a reference at most once, and answers a repeat with the
   * first answer, so a charge whose answer was lost can be asked about (`lookup`) instead of made again.
   */
  readonly reference: string
  readonly mode: Invoice.Mode
  readonly amount: Cents.Cents
  readonly installments: number
  readonly card: CardSource
  readonly threeDSecure: ThreeDSecureOutcome
}

export type CardChargeResult =
  | { readonly _tag: "Approved" }
  | { readonly _tag: "Refused"; readonly reason: RefusedReason }

/** What became of a charge asked about by its reference. */
export type CardChargeLookup =
  | CardChargeResult
  /** The acquirer never received it; from now on it refuses that reference, so a late arrival charges nothing. */
  | { readonly _tag: "Void" }

/**
 * How an approved charge went back to the card: voided before the acquirer settled it with the card's issuer, or
 * refunded after. Either way the payer is charged nothing.
 */
export type CardReversal = { readonly _tag: "Voided" } | { readonly _tag: "Refunded" }

export class CardAcquirer extends Context.Service<
  CardAcquirer,
  {
    /**
     * Fails when no acquirer takes card payments of `mode`. Asked before anything of a card payment is recorded, so
     * that a payment no acquirer could take leaves nothing behind.
     */
    readonly available: (mode: Invoice.Mode) => Effect.Effect<void, AcquirerUnavailable>
    /**
     * Keeps the card in the acquirer's vault for a later charge, and hands back its reference: the number and
     * the security code stay with the acquirer.
     */
    readonly tokenize: (
      mode: Invoice.Mode,
      card: CardData
    ) => Effect.Effect<{ readonly reference: string }, AcquirerUnavailable>
    /**
     * Authorizes and captures at once; a refusal is a result, not a failure. `AcquirerUnavailable` means the charge
     * was not taken; a call cut off on its way (a timeout, a crash) may still have charged, and is looked up.
     */
    readonly charge: (request: CardChargeRequest) => Effect.Effect<CardChargeResult, AcquirerUnavailable>
    /** What became of the charge sent with `reference`; asking settles it (see `CardChargeLookup`). */
    readonly lookup: (mode: Invoice.Mode, reference: string) => Effect.Effect<CardChargeLookup, AcquirerUnavailable>
    /**
     * Gives the whole of the charge made under `reference` back to the card, once: a repeat is answered as the first
     * was. A reference it never charged is voided, as by `lookup`: a charge arriving under it later is refused.
     * `AcquirerUnavailable` means it was not taken; a call cut off on its way may still have reversed, and is
     * looked up (`findReversal`).
     */
    readonly reverse: (mode: Invoice.Mode, reference: string) => Effect.Effect<CardReversal, AcquirerUnavailable>
    /** How the charge made under `reference` was given back; none when no reversal of it reached the acquirer. */
    readonly findReversal: (
      mode: Invoice.Mode,
      reference: string
    ) => Effect.Effect<Option.Option<CardReversal>, AcquirerUnavailable>
  }
>()("@fatura/application/CardAcquirer") {}
