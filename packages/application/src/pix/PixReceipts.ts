// A pix received: paid into its invoice only once the provider vouches for it — a notification, which anyone can send,
// is only a hint, so the pix it names is asked of the provider, and its charge, which it must have paid — and returned
// to its payer whole when it pays nothing.
import { Effect, Option } from "effect"
import { PixProviderUnavailable, type StorageUnavailable } from "../platform/Failures.js"
import type * as PixMoves from "./PixMoves.js"
import type { PixOutcome } from "./PixMoves.js"
import { PixProvider, type ReceivedPix } from "./PixProvider.js"
import type { Ask, ReturnSteps } from "./PixReturns.js"

/** The steps of a received pix, each calling the provider through an `Ask` failing with `E`. */
export interface ReceiptSteps<E> {
  /** Pays the invoice of a pix the provider vouches for, or says why it does not and returns the pix. */
  readonly apply: (received: ReceivedPix) => Effect.Effect<PixOutcome, E | StorageUnavailable>
  /** A notified pix, confirmed with the provider: whether the provider received it, and what became of it. */
  readonly confirm: (
    endToEndId: string
  ) => Effect.Effect<
    { readonly received: boolean; readonly outcome: PixOutcome },
    E | PixProviderUnavailable | StorageUnavailable
  >
}

/** Every step that calls the provider, each call made through an `Ask` failing with `E`. */
export type PixSteps<E> = ReturnSteps<E> & ReceiptSteps<E>

export const make = (settlePix: Effect.Success<typeof PixMoves.make>["settlePix"]) =>
  Effect.gen(function* () {
    const provider = yield* PixProvider

    return <E>(ask: Ask<E>, returnRejected: ReturnSteps<E>["returnRejected"]): ReceiptSteps<E> => {
      /** Pays the invoice of a pix the provider vouches for, or says why it does not and returns the pix. */
      const apply = Effect.fnUntraced(function* (received: ReceivedPix) {
        const outcome = yield* settlePix(received)
        if (typeof outcome === "string") return outcome
        yield* returnRejected(outcome).pipe(
          Effect.catchIf(
            (error): error is PixProviderUnavailable => error instanceof PixProviderUnavailable,
            (error) =>
              Effect.logWarning("rejected pix not returned yet: left to the sweep", {
                returnId: outcome.returnId,
                error
              })
          )
        )
        return "rejected" as PixOutcome
      })

      /**
       * A notified pix, confirmed with the provider: the pix itself, then its charge, which it must have paid.
       * Whether the provider received it, and what became of it.
       */
      const confirm = Effect.fnUntraced(function* (endToEndId: string) {
        const notVouched = (message: string, log: Record<string, unknown>) =>
          Effect.as(Effect.logWarning(message, log), Option.none<never>())
        const received = yield* ask(
          provider.findReceived(endToEndId).pipe(
            Effect.catchTag("PixProviderRefused", (refused) =>
              notVouched("the provider would not confirm a notified pix: ignored", {
                endToEndId,
                reason: refused.reason
              })
            )
          )
        )
        if (Option.isNone(received)) {
          yield* Effect.logWarning("notified pix unknown to the provider: ignored", { endToEndId })
          return { received: false, outcome: "unmatched" as PixOutcome }
        }
        const txid = received.value.txid
        if (txid !== null) {
          const charge = yield* ask(
            provider.findCharge(txid).pipe(
              Effect.catchTag("PixProviderRefused", (refused) =>
                notVouched("the provider would not show a notified pix's charge", {
                  endToEndId,
                  txid,
                  reason: refused.reason
                })
              )
            )
          )
          const paidIt = Option.exists(charge, (found) =>
            found.pix.some((pix) => pix.endToEndId === received.value.endToEndId)
          )
          if (!paidIt) {
            yield* Effect.logWarning("notified pix is not among its charge's pix: ignored", { endToEndId, txid })
            return { received: true, outcome: "unmatched" as PixOutcome }
          }
        }
        return { received: true, outcome: yield* apply(received.value) }
      })

      return { apply, confirm }
    }
  })
