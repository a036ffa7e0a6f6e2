// A stand-in card acquirer that answers by card number with the contract's test cards, in test and live mode
// alike: a few numbers are refused, one needs 3-D Secure, every other card is approved. Its "vault" keeps no card
// number, only how it will answer for the card.
import { Effect, Layer } from "effect"
import { CardAcquirer, type CardChargeResult, type RefusedReason } from "../CardAcquirer.js"

/** The cards that are refused, and why. */
export const refusedCards: ReadonlyMap<string, RefusedReason> = new Map([
  ["4000000000000002", "card_declined"],
  ["4000000000009995", "insufficient_funds"],
  ["4000000000000069", "expired_card"],
  ["4000000000000119", "processing_error"]
])

/** Refused with `authentication_required` unless 3-D Secure authenticated the payment or was attempted. */
export const authenticationRequiredCard = "4000002760003184"

type Answer = RefusedReason | "approve" | "requires_3ds"

const answerFor = (number: string): Answer =>
  refusedCards.get(number) ?? (number === authenticationRequiredCard ? "requires_3ds" : "approve")

const vaultPrefix = "test-vault:"

export const layer = Layer.succeed(
  CardAcquirer,
  CardAcquirer.of({
    tokenize: (_mode, card) => Effect.succeed({ reference: vaultPrefix + answerFor(card.number) }),
    charge: (request) =>
      Effect.sync((): CardChargeResult => {
        const answer =
          request.card._tag === "Card"
            ? answerFor(request.card.number)
            : (request.card.reference.slice(vaultPrefix.length) as Answer)
        if (answer === "approve") return { _tag: "Approved" }
        if (answer === "requires_3ds") {
          return request.threeDSecure === "unauthenticated"
            ? { _tag: "Refused", reason: "authentication_required" }
            : { _tag: "Approved" }
        }
        return { _tag: "Refused", reason: answer }
      })
  })
)
