// A return of a pix to its payer — a refund's, or a pix that paid nothing returned whole — asked for with its balance
// already held, and closed when the provider says how it ended; a return the provider refuses when it is asked for has
// ended too, refused. Each call of the provider is made through an `Ask`: as it is, or within a notification's budget.
import { Effect, Option } from "effect"
import * as Clock from "../platform/Clock.js"
import { PixProviderUnavailable, type StorageUnavailable } from "../platform/Failures.js"
import type * as PixMoves from "./PixMoves.js"
import { PixProvider, type PixReturnRequest, type PixReturnState } from "./PixProvider.js"
import { type PendingRefund, type PixRejection, PixReturnRepository } from "./PixReturnRepository.js"

/** How a step calls the provider: as it is, or within a notification's budget (failing with `E` once it is spent). */
export type Ask<E> = <A, E1>(call: Effect.Effect<A, E1>) => Effect.Effect<A, E1 | E>

/** The steps of a return, each calling the provider through an `Ask` failing with `E`. */
export interface ReturnSteps<E> {
  /**
   * Returns a pix that paid nothing to its payer, whole, and closes its return once the provider says how it ended;
   * whether it closed it.
   */
  readonly returnRejected: (
    rejection: PixRejection
  ) => Effect.Effect<boolean, E | PixProviderUnavailable | StorageUnavailable>
  /** Asks the provider for a pending refund's return, or about it, and closes it; whether it closed it. */
  readonly settle: (pending: PendingRefund) => Effect.Effect<boolean, E | PixProviderUnavailable | StorageUnavailable>
}

export const make = (closeReturn: Effect.Success<typeof PixMoves.make>["closeReturn"]) =>
  Effect.gen(function* () {
    const provider = yield* PixProvider
    const returns = yield* PixReturnRepository

    return <E>(ask: Ask<E>): ReturnSteps<E> => {
      /**
       * Where a return stands at the provider; one it never got (the request was lost, or never sent) is asked for
       * again under the same id, which the provider makes once. A return the provider refuses to make is
       * `Refused` with its reason: that is how it ended. A provider that refuses to say where a return stands says
       * nothing of it (it may have been made): it is left pending, as when the provider cannot be reached.
       */
      const returnState = Effect.fnUntraced(function* (request: PixReturnRequest) {
        const lookUp = ask(
          provider.findReturn(request.endToEndId, request.returnId).pipe(
            Effect.catchTag("PixProviderRefused", (refused) =>
              Effect.fail(
                new PixProviderUnavailable({
                  message: `the provider would not say where return ${request.returnId} stands: ${refused.message}`
                })
              )
            )
          )
        )
        const known = yield* lookUp
        if (Option.isSome(known)) return known.value
        const requested = yield* ask(
          provider
            .requestReturn(request)
            .pipe(
              Effect.catchTag("PixProviderRefused", (refused) =>
                Effect.succeed<PixReturnState>({ _tag: "Refused", reason: refused.reason })
              )
            )
        )
        if (requested._tag !== "Refused") return requested
        // A refusal may answer a request the provider had already taken under this id — the same request sent by
        // another process at the same time, or one whose answer was lost on its way — so what the provider holds
        // under the id, if anything, is how the return ended; only when it holds nothing was the return refused.
        return Option.getOrElse(yield* lookUp, () => requested)
      })

      /**
       * Returns a pix that paid nothing to its payer, whole, and closes its return once the provider says how it
       * ended; one it could not ask for, or that it is still processing, is left to the sweep.
       */
      const returnRejected = Effect.fnUntraced(function* (rejection: PixRejection) {
        if (rejection.returnState !== "pending") return false
        const state = yield* returnState({
          endToEndId: rejection.endToEndId,
          returnId: rejection.returnId,
          amount: rejection.amount,
          reason: "Pagamento não corresponde à cobrança"
        })
        if (state._tag === "Processing") return false
        if (state._tag === "Refused") {
          // The money stays in the platform's account: someone has to return it by hand.
          yield* Effect.logError("a pix that paid nothing could not be returned to its payer", {
            endToEndId: rejection.endToEndId,
            returnId: rejection.returnId,
            reason: state.reason
          })
        }
        yield* returns.closePixRejection(
          rejection.returnId,
          state._tag === "Returned" ? "returned" : "refused",
          yield* Clock.now
        )
        return true
      })

      const settle = Effect.fnUntraced(function* (pending: PendingRefund) {
        if (pending.status !== "pending") return false
        const state = yield* returnState({
          endToEndId: pending.endToEndId,
          returnId: pending.returnId,
          amount: pending.amount,
          reason: null
        })
        return yield* closeReturn(pending, state)
      })

      return { returnRejected, settle }
    }
  })
