// A stand-in card acquirer that answers by card number with the contract's test cards, in test and live mode
// alike: a few numbers are refused, one needs 3-D Secure, every other card is approved. Its "vault" keeps no card
// number, only how it will answer for the card. It remembers each charge by its reference, as an acquirer does:
// a repeat is answered as the first was, and a lookup of a reference it never saw voids it. It gives a charge back
// once (voided), and voids a reference it is asked to give back before it charged it.
import { Effect, Layer, Option } from "effect"
import {
  CardAcquirer,
  type CardChargeLookup,
  type CardChargeResult,
  type CardReversal,
  type RefusedReason
} from "../cards/CardAcquirer.js"

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

/** The acquirer's side of a charge, by reference: its result, or void when it was looked up before it arrived. */
export type Charges = Map<string, CardChargeLookup>

/** The charges given back, by reference. */
export type Reversals = Map<string, CardReversal>

/** The stand-in over `charges` and `reversals`, which a test may read to see what was charged and given back. */
export const make = (charges: Charges, reversals: Reversals = new Map()) =>
  CardAcquirer.of({
    available: () => Effect.void,
    tokenize: (_mode, card) => Effect.succeed({ reference: vaultPrefix + answerFor(card.number) }),
    charge: (request) =>
      Effect.sync((): CardChargeResult => {
        const known = charges.get(request.reference)
        if (known !== undefined) return known._tag === "Void" ? { _tag: "Refused", reason: "processing_error" } : known
        const answer =
          request.card._tag === "Card"
            ? answerFor(request.card.number)
            : (request.card.reference.slice(vaultPrefix.length) as Answer)
        const result: CardChargeResult =
          answer === "approve" || (answer === "requires_3ds" && request.threeDSecure !== "unauthenticated")
            ? { _tag: "Approved" }
            : { _tag: "Refused", reason: answer === "requires_3ds" ? "authentication_required" : answer }
        charges.set(request.reference, result)
        return result
      }),
    lookup: (_mode, reference) =>
      Effect.sync(() => {
        const known = charges.get(reference)
        if (known !== undefined) return known
        charges.set(reference, { _tag: "Void" })
        return { _tag: "Void" } as const
      }),
    reverse: (_mode, reference) =>
      Effect.sync(() => {
        const known = reversals.get(reference)
        if (known !== undefined) return known
        if (!charges.has(reference)) charges.set(reference, { _tag: "Void" })
        const reversal: CardReversal = { _tag: "Voided" }
        reversals.set(reference, reversal)
        return reversal
      }),
    findReversal: (_mode, reference) => Effect.sync(() => Option.fromNullishOr(reversals.get(reference)))
  })

export const layer = Layer.sync(CardAcquirer, () => make(new Map()))
