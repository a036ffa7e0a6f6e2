// A notification of pix received and returns settled. It costs a bounded number of provider calls, anyone being able
// to send one: the same pix or return named twice is asked about once, returns are looked up only under a pix the
// provider confirmed (all of them in one read), and past a budget of calls what it names is left to the reconciliation
// and the returns sweep.
import { Data, Effect } from "effect"
import { PixProviderUnavailable } from "../platform/Failures.js"
import { Transactions } from "../platform/Transactions.js"
import type { PixSteps } from "./PixReceipts.js"
import { PixReturnRepository } from "./PixReturnRepository.js"
import type { Ask } from "./PixReturns.js"

/**
 * How many calls of the provider one notification may make: enough for a few pix (two calls each: the pix, then its
 * charge) and their returns (one or two each). What it names beyond is not asked about then: the reconciliation lists
 * every pix received, and the sweep asks about every return left pending.
 */
export const notificationCallBudget = 10

/** What a notification names: the pix, and the returns of each it says were settled. */
export interface PixNotification {
  readonly endToEndId: string
  readonly returnIds: ReadonlyArray<string>
}

/** A notification's calls of the provider are spent: its own budget, or the allowance every notification shares. */
class CallsSpent extends Data.TaggedError("CallsSpent")<{ readonly by: "notification" | "platform" }> {}

export const make = (steps: <E>(ask: Ask<E>) => PixSteps<E>) =>
  Effect.gen(function* () {
    const transactions = yield* Transactions
    const returns = yield* PixReturnRepository

    return Effect.fn("PixSettlements.notified")(function* (
      notification: ReadonlyArray<PixNotification>,
      allowance: Effect.Effect<boolean> = Effect.succeed(true)
    ) {
      // The same pix named twice is one pix, its returns put together; the same return twice is one return.
      const named = new Map<string, Set<string>>()
      for (const pix of notification) {
        const returnIds = named.get(pix.endToEndId) ?? new Set<string>()
        for (const returnId of pix.returnIds) returnIds.add(returnId)
        named.set(pix.endToEndId, returnIds)
      }
      let callsLeft = notificationCallBudget
      const withinBudget = <A, E1>(call: Effect.Effect<A, E1>): Effect.Effect<A, E1 | CallsSpent> =>
        Effect.suspend(() =>
          callsLeft <= 0
            ? Effect.fail(new CallsSpent({ by: "notification" }))
            : Effect.flatMap(allowance, (allowed): Effect.Effect<A, E1 | CallsSpent> => {
                if (!allowed) return Effect.fail(new CallsSpent({ by: "platform" }))
                callsLeft -= 1
                return transactions.external(call)
              })
        )
      const budgeted = steps<CallsSpent>(withinBudget)
      let pixLeft = named.size
      let returnsLeft = 0
      yield* Effect.gen(function* () {
        // A pix the provider received vouches for the returns named under it: only those are looked up.
        const confirmed = new Map<string, ReadonlySet<string>>()
        for (const [endToEndId, returnIds] of named) {
          const { received } = yield* budgeted.confirm(endToEndId)
          pixLeft -= 1
          if (received && returnIds.size > 0) confirmed.set(endToEndId, returnIds)
        }
        const namedUnder = (endToEndId: string, returnId: string) => confirmed.get(endToEndId)?.has(returnId) ?? false
        const returnIds = [...confirmed.values()].flatMap((ids) => [...ids])
        if (returnIds.length === 0) return
        // A return of a pix other than the one it was named under is no return of this notification.
        const pending = yield* returns.findPendingReturns(returnIds)
        const refunds = pending.refunds.filter((refund) => namedUnder(refund.endToEndId, refund.returnId))
        const rejections = pending.rejections.filter((rejection) =>
          namedUnder(rejection.endToEndId, rejection.returnId)
        )
        returnsLeft = refunds.length + rejections.length
        for (const refund of refunds) {
          yield* budgeted.settle(refund)
          returnsLeft -= 1
        }
        for (const rejection of rejections) {
          yield* budgeted.returnRejected(rejection)
          returnsLeft -= 1
        }
      }).pipe(
        Effect.catchTag("CallsSpent", (spent) =>
          spent.by === "notification"
            ? Effect.logWarning(
                `pix notification past its budget of ${notificationCallBudget} provider calls: the rest is left to the reconciliation and the returns sweep`,
                { pixNotConfirmed: pixLeft, returnsNotSettled: returnsLeft }
              )
            : Effect.andThen(
                Effect.logWarning(
                  "pix notifications past the provider calls allowed to them all: the rest is left to the reconciliation and the returns sweep, and the notification to be sent again",
                  { pixNotConfirmed: pixLeft, returnsNotSettled: returnsLeft }
                ),
                Effect.fail(
                  new PixProviderUnavailable({
                    message: "the provider calls allowed to pix notifications are spent for now"
                  })
                )
              )
        )
      )
    })
  })
