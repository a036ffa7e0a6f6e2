// The sandbox card acquirer: answers by card number as SPEC 6.3 lists, and has no live mode — live card
// payments need a real acquirer adapter, so they are refused as unavailable. Its "vault" keeps no number:
// a reference names only how the sandbox will answer for that card. Like an acquirer, it answers a charge's repeat
// as it answered the charge, and voids a reference it is asked about before the charge arrived. It gives a charge
// back once, voiding it (a sandbox charge is never settled with an issuer, so there is nothing to refund), and
// voids a reference it is asked to give back before the charge arrived.
import {
  AcquirerUnavailable,
  CardAcquirer,
  type CardChargeLookup,
  type CardChargeResult,
  type CardData,
  type CardReversal,
  type RefusedReason
} from "@fatura/application"
import type { Invoice } from "@fatura/domain"
import { Effect, Layer, Option } from "effect"

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

/**
 * How long the sandbox remembers a charge, and its reversal, by its reference: well past the time after which a
 * charge whose answer was lost is looked up. It lives in the process, so a charge of a process that died is unknown
 * to the next one, and a lookup voids it: a sandbox charge is only real while its process lives.
 */
const rememberedFor = 60 * 60 * 1000

/** A map by reference that forgets what is older than `rememberedFor`, oldest first. */
const memory = <A>() => {
  const entries = new Map<string, { readonly at: number; readonly value: A }>()
  return {
    get: (reference: string) => entries.get(reference)?.value,
    set: (reference: string, value: A) => {
      const now = Date.now()
      for (const [old, { at }] of entries) {
        if (at > now - rememberedFor) break
        entries.delete(old)
      }
      entries.set(reference, { at: now, value })
    }
  }
}

export const layer = Layer.sync(CardAcquirer, () => {
  /** Each charge's answer by reference. */
  const charges = memory<CardChargeLookup>()
  /** Each charge given back, by reference. */
  const reversals = memory<CardReversal>()

  return CardAcquirer.of({
    available: unavailable,
    tokenize: (mode, card: CardData) =>
      unavailable(mode).pipe(Effect.as({ reference: `${referencePrefix}${behaviourOf(card.number)}` })),
    charge: (request) =>
      unavailable(request.mode).pipe(
        Effect.map((): CardChargeResult => {
          const known = charges.get(request.reference)
          if (known !== undefined) {
            return known._tag === "Void" ? { _tag: "Refused", reason: "processing_error" } : known
          }
          const behaviour =
            request.card._tag === "Card"
              ? behaviourOf(request.card.number)
              : (request.card.reference.slice(referencePrefix.length) as Behaviour)
          const result: CardChargeResult =
            behaviour === "approve" || (behaviour === "requires_3ds" && request.threeDSecure !== "unauthenticated")
              ? { _tag: "Approved" }
              : { _tag: "Refused", reason: behaviour === "requires_3ds" ? "authentication_required" : behaviour }
          charges.set(request.reference, result)
          return result
        })
      ),
    lookup: (mode, reference) =>
      unavailable(mode).pipe(
        Effect.map((): CardChargeLookup => {
          const known = charges.get(reference)
          if (known !== undefined) return known
          charges.set(reference, { _tag: "Void" })
          return { _tag: "Void" }
        })
      ),
    reverse: (mode, reference) =>
      unavailable(mode).pipe(
        Effect.map((): CardReversal => {
          const known = reversals.get(reference)
          if (known !== undefined) return known
          if (charges.get(reference) === undefined) charges.set(reference, { _tag: "Void" })
          const reversal: CardReversal = { _tag: "Voided" }
          reversals.set(reference, reversal)
          return reversal
        })
      ),
    findReversal: (mode, reference) =>
      unavailable(mode).pipe(Effect.map(() => Option.fromNullishOr(reversals.get(reference))))
  })
})
