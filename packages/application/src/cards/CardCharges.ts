// Use case: card charges made without holding a transaction or a lock while the acquirer answers (SPEC 4.1, 4.7).
// A charge is recorded first, under a reference of ours that the acquirer keeps as its idempotency key; it is sent
// outside any transaction; its answer is written afterwards, in a transaction of its own. A charge whose answer was
// lost (the process died, the answer did not come in time) is settled by asking the acquirer what became of it:
// by a repeat of its request under the same Idempotency-Key, or by the sweep. So a charge that happened is never
// lost, and never made twice.
// A charge settles only an invoice still pending: one answered after its invoice moved on (which no move allows while
// a charge is in flight, InvoiceRecords.refuseWhileCharging) is closed `late` and pays nothing. If the acquirer
// approved it, the money goes back to the card the same way: the reversal is recorded first, asked of the acquirer
// with nothing held, and recorded as done after; a lost answer is settled by asking the acquirer about it.
// A page of modules: the settlement of a charge with its answer, and a late one given back (CardChargeSettlement), and
// the sweep of charges whose answer was lost (CardChargeSweep).
import { Context, type Duration, Effect, Layer, Option, Result, Schedule } from "effect"
import type { InvoiceView } from "../invoices/InvoiceInput.js"
import { AcquirerUnavailable, type StorageUnavailable } from "../platform/Failures.js"
import { Transactions } from "../platform/Transactions.js"
import { CardAcquirer, type CardChargeRequest } from "./CardAcquirer.js"
import { type CardCharge, CardChargeRepository } from "./CardChargeRepository.js"
import * as CardChargeSettlement from "./CardChargeSettlement.js"
import { type Creator, chargeTimeout, type SettledCharge } from "./CardChargeSettlement.js"
import * as CardChargeSweep from "./CardChargeSweep.js"

export { type Creator, chargeTimeout, type SettledCharge } from "./CardChargeSettlement.js"
export { staleChargeSeconds } from "./CardChargeSweep.js"

/** A charge the acquirer took and that was settled: it paid or refused its invoice, or came too late to. */
export interface AnsweredCharge {
  readonly state: "approved" | "refused" | "late"
  readonly view: InvoiceView
}

export class CardCharges extends Context.Service<
  CardCharges,
  {
    /**
     * Sends a recorded charge to the acquirer, outside any transaction, and settles it with the answer: pays or
     * refuses its invoice, creating it for a charge made while creating one, or closes it `late` (an approved one
     * is then given back to the card). A charge the acquirer did not take is void; one whose answer does not come
     * within `chargeTimeout` stays requested for the sweep. Either fails as the acquirer being unavailable.
     */
    readonly send: (
      charge: CardCharge,
      request: Omit<CardChargeRequest, "reference">,
      creator?: Creator
    ) => Effect.Effect<AnsweredCharge, AcquirerUnavailable | StorageUnavailable>
    /**
     * The charge with this reference, settled: asked about if it is still requested, never sent again. None when
     * no charge has that reference.
     */
    readonly resume: (
      reference: string
    ) => Effect.Effect<Option.Option<SettledCharge>, AcquirerUnavailable | StorageUnavailable>
    /**
     * Settles up to a batch of charges whose answer was lost (`staleChargeSeconds` old) at a time, until none is
     * left, by asking the acquirer, then the reversals of late charges whose answer was lost, the same way; how
     * many it settled. One the acquirer cannot tell about yet is left for later.
     */
    readonly sweep: Effect.Effect<number, StorageUnavailable>
    /** Sweeps every `interval` for ever; a failed sweep is logged and tried again at the next tick. */
    readonly run: (interval: Duration.Input) => Effect.Effect<never>
  }
>()("@fatura/application/CardCharges") {
  static readonly layer = Layer.effect(
    CardCharges,
    Effect.gen(function* () {
      const charges = yield* CardChargeRepository
      const transactions = yield* Transactions
      const acquirer = yield* CardAcquirer
      const settlement = yield* CardChargeSettlement.make
      const { viewOf, settle, settleAndGiveBack, settleByLookup } = settlement
      const sweep = yield* CardChargeSweep.make(settlement)

      const send = Effect.fn("CardCharges.send")(function* (
        charge: CardCharge,
        request: Omit<CardChargeRequest, "reference">,
        creator?: Creator
      ) {
        const answer = yield* transactions
          .external(acquirer.charge({ ...request, reference: charge.reference }))
          .pipe(Effect.timeoutOption(chargeTimeout), Effect.result)
        if (Result.isFailure(answer)) {
          yield* settle(charge, { _tag: "Void" })
          return yield* answer.failure
        }
        if (Option.isNone(answer.success)) {
          return yield* new AcquirerUnavailable({
            message: "the card acquirer did not answer in time; the payment settles once it says what became of it"
          })
        }
        const settled = yield* settleAndGiveBack(charge, answer.success.value, creator)
        // Voided meanwhile by the sweep, which asked the acquirer before the charge reached it: it was not made.
        if (settled.state === "void" || settled.view === null) {
          return yield* new AcquirerUnavailable({
            message: "the card acquirer did not take the charge; it was not made"
          })
        }
        return { state: settled.state, view: settled.view } satisfies AnsweredCharge
      })

      const resume = Effect.fn("CardCharges.resume")(function* (reference: string) {
        const charge = yield* charges.findCardCharge(reference)
        if (Option.isNone(charge)) return Option.none<SettledCharge>()
        if (charge.value.state === "requested") return Option.some(yield* settleByLookup(charge.value))
        return Option.some<SettledCharge>({ state: charge.value.state, view: yield* viewOf(charge.value) })
      })

      const run = (interval: Duration.Input) =>
        sweep.pipe(
          Effect.tap((settled) =>
            settled > 0 ? Effect.logInfo("settled card charges whose answer was lost", { settled }) : Effect.void
          ),
          Effect.catchCause((cause) => Effect.logWarning("card charge sweep failed", cause)),
          Effect.repeat(Schedule.spaced(interval)),
          Effect.andThen(Effect.never)
        )

      return CardCharges.of({ send, resume, sweep, run })
    })
  )
}
