// The sweep of card charges whose answer was lost (the process died, the answer did not come in time): each is
// settled by asking the acquirer what became of it, then the reversals of late charges whose answer was lost, the
// same way. A charge that happened is never lost, and never made twice.
import { Timestamp } from "@fatura/domain"
import { Effect, Option } from "effect"
import * as Clock from "../platform/Clock.js"
import type { AcquirerUnavailable, StorageUnavailable } from "../platform/Failures.js"
import { Transactions } from "../platform/Transactions.js"
import { CardAcquirer } from "./CardAcquirer.js"
import { type CardCharge, CardChargeRepository } from "./CardChargeRepository.js"
import type { Settlement } from "./CardChargeSettlement.js"

/** A charge still requested this long after it was sent lost its answer: the sweep asks the acquirer about it. */
export const staleChargeSeconds = 120

const batchSize = 100

export const make = (settlement: Settlement) =>
  Effect.gen(function* () {
    const charges = yield* CardChargeRepository
    const transactions = yield* Transactions
    const acquirer = yield* CardAcquirer
    const { recordReversal, settleByLookup } = settlement

    /**
     * Settles the reversal of a late charge whose answer was lost by asking the acquirer how it gave the charge
     * back; one it never received is asked for now, which it makes once per reference.
     */
    const settleReversal = Effect.fnUntraced(function* (charge: CardCharge) {
      const known = yield* transactions.external(acquirer.findReversal(charge.mode, charge.reference))
      const reversal = Option.isSome(known)
        ? known.value
        : yield* transactions.external(acquirer.reverse(charge.mode, charge.reference))
      yield* recordReversal(charge, reversal)
    })

    /**
     * Settles, a batch at a time until none is left, what `stale` lists, with `settleOne`; one the acquirer cannot
     * tell about yet is left for later. How many it settled.
     */
    const sweepBatches = (
      what: string,
      stale: (before: Timestamp.Timestamp) => Effect.Effect<ReadonlyArray<CardCharge>, StorageUnavailable>,
      settleOne: (charge: CardCharge) => Effect.Effect<unknown, AcquirerUnavailable | StorageUnavailable>
    ) =>
      Effect.gen(function* () {
        let total = 0
        while (true) {
          const now = yield* Clock.now
          const batch = yield* stale(Timestamp.plusSeconds(now, -staleChargeSeconds))
          let settled = 0
          for (const charge of batch) {
            const done = yield* settleOne(charge).pipe(
              Effect.as(true),
              Effect.catchTag("AcquirerUnavailable", (unavailable) =>
                Effect.as(
                  Effect.logWarning(`the acquirer could not say what became of ${what}; it is asked again later`, {
                    reference: charge.reference,
                    reason: unavailable.message
                  }),
                  false
                )
              )
            )
            if (done) settled += 1
          }
          total += settled
          if (batch.length < batchSize || settled === 0) return total
        }
      })

    const sweep = Effect.gen(function* () {
      const stale = yield* sweepBatches(
        "a charge",
        (before) => charges.staleCardCharges(before, batchSize),
        settleByLookup
      )
      const reversals = yield* sweepBatches(
        "the reversal of a late charge",
        (before) => charges.staleCardChargeReversals(before, batchSize),
        settleReversal
      )
      return stale + reversals
    }).pipe(Effect.withSpan("CardCharges.sweep"))

    return sweep
  })
