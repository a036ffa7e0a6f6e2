// The rounds that catch what notifications missed: the reconciliation lists what the provider received and pays the
// invoices whose notification never came; the returns sweep settles the returns left pending, asking the provider
// about them, or for them again; the charges sweep removes the pix charges of hybrid boletos the bank moved.
import { Timestamp } from "@fatura/domain"
import { Effect, Option } from "effect"
import * as Clock from "../platform/Clock.js"
import type { PixProviderUnavailable } from "../platform/Failures.js"
import { Transactions } from "../platform/Transactions.js"
import { PixChargeRemovalRepository } from "./PixChargeRemovalRepository.js"
import { PixProvider } from "./PixProvider.js"
import type { PixSteps } from "./PixReceipts.js"
import { PixReturnRepository } from "./PixReturnRepository.js"

/** How long a return may stay unanswered before the sweep asks the provider about it. */
export const staleReturnSeconds = 60

/** How far back the first reconciliation lists, and how much each one lists again of what the last one did. */
const firstListingSeconds = 86_400
const listingOverlapSeconds = 120

const batchSize = 100

export const make = (unbudgeted: PixSteps<never>) =>
  Effect.gen(function* () {
    const returns = yield* PixReturnRepository
    const transactions = yield* Transactions
    const provider = yield* PixProvider
    const removals = yield* PixChargeRemovalRepository

    const reconcile = Effect.fn("PixSettlements.reconcile")(function* () {
      const now = yield* Clock.now
      const listed = yield* returns.pixListedUntil
      const from = Option.getOrElse(listed, () => Timestamp.plusSeconds(now, -firstListingSeconds))
      const received = yield* transactions.external(provider.listReceived(from, now))
      let paid = 0
      for (const pix of received) if ((yield* unbudgeted.apply(pix)) === "paid") paid += 1
      // The next listing starts a little before this one ended: a pix the provider writes down late is not missed.
      yield* returns.setPixListedUntil(Timestamp.plusSeconds(now, -listingOverlapSeconds))
      if (paid > 0) yield* Effect.logInfo("reconciliation paid invoices whose notification never came", { paid })
      return paid
    })

    const sweepReturns = Effect.fn("PixSettlements.sweepReturns")(function* () {
      const before = Timestamp.plusSeconds(yield* Clock.now, -staleReturnSeconds)
      const stale = yield* returns.stalePendingRefunds(before, batchSize)
      const rejected = yield* returns.stalePixRejections(before, batchSize)
      const leftPending = (returnId: string) => (error: PixProviderUnavailable) =>
        Effect.as(Effect.logWarning("pix return left pending", { returnId, error }), false)
      let closed = 0
      for (const pending of stale) {
        const done = yield* unbudgeted
          .settle(pending)
          .pipe(Effect.catchTag("PixProviderUnavailable", leftPending(pending.returnId)))
        if (done) closed += 1
      }
      for (const rejection of rejected) {
        const done = yield* unbudgeted
          .returnRejected(rejection)
          .pipe(Effect.catchTag("PixProviderUnavailable", leftPending(rejection.returnId)))
        if (done) closed += 1
      }
      return closed
    })

    /**
     * Removes the charges queued for removal, each asked of the provider with nothing held; one the provider will not
     * remove (paid meanwhile: that pix pays nothing and goes back to its payer, or gone) is done with too. How many.
     */
    const sweepCharges = Effect.fn("PixSettlements.sweepCharges")(function* () {
      const dueCharges = provider.dueCharges
      if (dueCharges === null) return 0
      let removed = 0
      for (const { txid, invoiceId } of yield* removals.pending(batchSize)) {
        const done = yield* transactions.external(dueCharges.remove(txid)).pipe(
          Effect.as(true),
          Effect.catchTag("PixProviderRefused", (refused) =>
            Effect.as(
              Effect.logWarning("the provider would not remove a hybrid boleto's pix charge", {
                txid,
                invoiceId,
                reason: refused.reason
              }),
              true
            )
          ),
          Effect.catchTag("PixProviderUnavailable", (error) =>
            Effect.as(Effect.logWarning("pix charge not removed yet: left to the next sweep", { txid, error }), false)
          )
        )
        if (!done) continue
        yield* removals.markDone(txid, yield* Clock.now)
        removed += 1
      }
      return removed
    })

    return { reconcile, sweepReturns, sweepCharges }
  })
