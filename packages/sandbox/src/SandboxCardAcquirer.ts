// The sandbox card acquirer: answers by card number as SPEC 6.3 lists, and has no live mode — live card
// payments need a real acquirer adapter, so they are refused as unavailable. Its "vault" keeps no number:
// a reference names only how the sandbox will answer for that card.
import {
  AcquirerUnavailable,
  CardAcquirer,
  type CardChargeResult,
  type CardData,
  type RefusedReason
} from "@fatura/application"
import type { Invoice } from "@fatura/domain"
import { Effect, Layer } from "effect"

const refusals: ReadonlyMap<string, RefusedReason> = new Map([
  ["4000000000000002", "card_declined"],
  ["4000000000009995", "insufficient_funds"],
  ["4000000000000069", "expired_card"],
  ["4000000000000119", "processing_error"]
])

/** Refused unless the payment was authenticated or at least attempted with 3-D Secure. */
const requiresAuthentication = "4000002760003184"

type Behaviour = RefusedReason | "approve" | "requires_3ds"

const behaviourOf = (number: string): Behaviour =>
  refusals.get(number) ?? (number === requiresAuthentication ? "requires_3ds" : "approve")

const referencePrefix = "sandbox:"

const unavailable = (mode: Invoice.Mode): Effect.Effect<void, AcquirerUnavailable> =>
  mode === "live"
    ? Effect.fail(new AcquirerUnavailable({ message: "no acquirer is configured for live card payments" }))
    : Effect.void

export const layer = Layer.succeed(
  CardAcquirer,
  CardAcquirer.of({
    tokenize: (mode, card: CardData) =>
      unavailable(mode).pipe(Effect.as({ reference: `${referencePrefix}${behaviourOf(card.number)}` })),
    charge: (request) =>
      unavailable(request.mode).pipe(
        Effect.map((): CardChargeResult => {
          const behaviour =
            request.card._tag === "Card"
              ? behaviourOf(request.card.number)
              : (request.card.reference.slice(referencePrefix.length) as Behaviour)
          if (behaviour === "approve") return { _tag: "Approved" }
          if (behaviour === "requires_3ds") {
            return request.threeDSecure === "unauthenticated"
              ? { _tag: "Refused", reason: "authentication_required" }
              : { _tag: "Approved" }
          }
          return { _tag: "Refused", reason: behaviour }
        })
      )
  })
)
