// The sandbox card acquirer: answers by card number as SPEC 6.3 lists, and has no live mode — live card
// payments need a real acquirer adapter, so they are refused as unavailable.
import { AcquirerUnavailable, CardAcquirer, type CardChargeResult, type RefusedReason } from "@fatura/application"
import { Effect, Layer } from "effect"

const refusals: ReadonlyMap<string, RefusedReason> = new Map([
  ["4000000000000002", "card_declined"],
  ["4000000000009995", "insufficient_funds"],
  ["4000000000000069", "expired_card"],
  ["4000000000000119", "processing_error"]
])

/** Refused unless the payment was authenticated or at least attempted with 3-D Secure. */
const requiresAuthentication = "4000002760003184"

export const layer = Layer.succeed(
  CardAcquirer,
  CardAcquirer.of({
    charge: (request) =>
      Effect.suspend((): Effect.Effect<CardChargeResult, AcquirerUnavailable> => {
        if (request.mode === "live") {
          return Effect.fail(new AcquirerUnavailable({ message: "no acquirer is configured for live card payments" }))
        }
        const refusal = refusals.get(request.card.number)
        if (refusal !== undefined) return Effect.succeed({ _tag: "Refused", reason: refusal })
        if (request.card.number === requiresAuthentication && request.threeDSecure === "unauthenticated") {
          return Effect.succeed({ _tag: "Refused", reason: "authentication_required" })
        }
        return Effect.succeed({ _tag: "Approved" })
      })
  })
)
