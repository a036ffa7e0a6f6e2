// Port: the card acquirer that authorizes and captures a card payment.
import type { Cents, Invoice } from "@fatura/domain"
import { Context, type Effect } from "effect"
import type { AcquirerUnavailable } from "./Failures.js"

export const RefusedReasons = [
  "card_declined",
  "insufficient_funds",
  "expired_card",
  "authentication_required",
  "processing_error"
] as const
export type RefusedReason = (typeof RefusedReasons)[number]

export type ThreeDSecureOutcome = "authenticated" | "attempted" | "unauthenticated"

export interface CardChargeRequest {
  readonly mode: Invoice.Mode
  readonly amount: Cents.Cents
  readonly installments: number
  readonly card: {
    readonly number: string
    readonly holderName: string
    readonly expirationMonth: number
    readonly expirationYear: number
    readonly securityCode: string
    readonly brand: string
  }
  readonly threeDSecure: ThreeDSecureOutcome
}

export type CardChargeResult =
  | { readonly _tag: "Approved" }
  | { readonly _tag: "Refused"; readonly reason: RefusedReason }

export class CardAcquirer extends Context.Service<
  CardAcquirer,
  {
    /** Authorizes and captures at once; a refusal is a result, not a failure. */
    readonly charge: (request: CardChargeRequest) => Effect.Effect<CardChargeResult, AcquirerUnavailable>
  }
>()("@fatura/application/CardAcquirer") {}
