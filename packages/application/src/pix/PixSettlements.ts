// Use case: what a pix provider says after a charge was made — pix received and returns settled — turned into
// payments and refunds through the same moves, ledger and events as every other one. A page of modules: the moves a
// pix makes (PixMoves), the returns asked for and closed (PixReturns), the pix received and vouched for by the provider
// (PixReceipts), a notification within its budget of calls (PixNotifications), and the reconciliation, the returns
// sweep and the removal of hybrid boletos' charges the bank moved (PixSweeps). Every step is idempotent: a pix pays
// its invoice once, a return closes once. No provider is asked inside a transaction.
import { Context, type Duration, Effect, Layer, Option, Schedule } from "effect"
import type { InvoiceView } from "../invoices/InvoiceInput.js"
import { InvoiceRepository } from "../invoices/InvoiceRepository.js"
import * as Clock from "../platform/Clock.js"
import type { PixProviderUnavailable, StorageUnavailable } from "../platform/Failures.js"
import { Transactions } from "../platform/Transactions.js"
import * as PixMoves from "./PixMoves.js"
import * as PixNotifications from "./PixNotifications.js"
import { PixProvider, type PixProviderFailure } from "./PixProvider.js"
import * as PixReceipts from "./PixReceipts.js"
import { PixReturnRepository } from "./PixReturnRepository.js"
import * as PixReturns from "./PixReturns.js"
import * as PixSweeps from "./PixSweeps.js"

export type { PixOutcome } from "./PixMoves.js"
export { notificationCallBudget, type PixNotification } from "./PixNotifications.js"
export { staleReturnSeconds } from "./PixSweeps.js"

export class PixSettlements extends Context.Service<
  PixSettlements,
  {
    /**
     * Acts on a notification: each pix and return it names is asked of the provider first, each once, within
     * `notificationCallBudget` calls; what is past that is left to the reconciliation and the sweep. `allowance` is
     * asked before each call as well (a budget every notification shares): once it says no, the rest is left too,
     * and the notification fails with `PixProviderUnavailable`, so that its sender sends it again later rather than
     * have it dropped because other notifications spent the calls.
     */
    readonly notified: (
      notification: ReadonlyArray<PixNotifications.PixNotification>,
      allowance?: Effect.Effect<boolean>
    ) => Effect.Effect<void, StorageUnavailable | PixProviderUnavailable>
    /**
     * Lists what the provider received since the last reconciliation and pays the invoices whose notification
     * never came; how many it paid.
     */
    readonly reconcile: Effect.Effect<number, StorageUnavailable | PixProviderFailure>
    /**
     * Asks the provider for a pending return (again: it makes one per id) or about it, and closes it if the
     * provider says how it ended — refused, too, when it will not make it. The invoice as it then is; none when no
     * return has that id.
     */
    readonly settleReturn: (
      returnId: string
    ) => Effect.Effect<Option.Option<InvoiceView>, StorageUnavailable | PixProviderUnavailable>
    /**
     * Settles the returns left pending for `staleReturnSeconds` — of refunds, and of pix that paid nothing — asking
     * the provider about them, or for them again; how many it closed.
     */
    readonly sweepReturns: Effect.Effect<number, StorageUnavailable>
    /**
     * Removes at the provider the pix charges of hybrid boletos whose invoice the bank paid, rejected or wrote off;
     * how many. One the provider cannot be reached for waits for the next sweep.
     */
    readonly sweepCharges: Effect.Effect<number, StorageUnavailable>
    /**
     * Tells the provider where to notify; `<url>/pix` is Fatura's notification endpoint. `PixProviderRefused` when
     * it will not take the URL: asking again is no use.
     */
    readonly registerWebhook: (url: string) => Effect.Effect<void, PixProviderFailure>
    /**
     * Reconciles every `reconcileEvery`, and sweeps returns and charges every `sweepEvery`, for ever; a failed round
     * is logged and tried again at the next tick.
     */
    readonly run: (settings: {
      readonly reconcileEvery: Duration.Input
      readonly sweepEvery: Duration.Input
    }) => Effect.Effect<never>
  }
>()("@fatura/application/PixSettlements") {
  static readonly layer = Layer.effect(
    PixSettlements,
    Effect.gen(function* () {
      const invoices = yield* InvoiceRepository
      const returns = yield* PixReturnRepository
      const transactions = yield* Transactions
      const provider = yield* PixProvider

      const moves = yield* PixMoves.make
      const returnSteps = yield* PixReturns.make(moves.closeReturn)
      const receiptSteps = yield* PixReceipts.make(moves.settlePix)

      /** The steps that call the provider, each call made through `ask`. */
      const steps = <E>(ask: PixReturns.Ask<E>): PixReceipts.PixSteps<E> => {
        const ofReturns = returnSteps(ask)
        return { ...ofReturns, ...receiptSteps(ask, ofReturns.returnRejected) }
      }

      /** The steps as they are, outside a notification: every call is made. */
      const unbudgeted = steps<never>(transactions.external)

      const settleReturn = Effect.fn("PixSettlements.settleReturn")(function* (returnId: string) {
        const pending = yield* returns.findPendingRefund(returnId)
        if (Option.isNone(pending)) return Option.none<InvoiceView>()
        yield* unbudgeted.settle(pending.value)
        return yield* invoices.findWithCompany(
          pending.value.companyId,
          pending.value.mode,
          { _tag: "Id", id: pending.value.invoiceId },
          yield* Clock.now
        )
      })

      const notified = yield* PixNotifications.make(steps)
      const { reconcile, sweepReturns, sweepCharges } = yield* PixSweeps.make(unbudgeted)

      const forEver = (round: Effect.Effect<unknown, unknown>, every: Duration.Input, name: string) =>
        round.pipe(
          Effect.catchCause((cause) => Effect.logWarning(`${name} failed; trying again at the next tick`, cause)),
          Effect.repeat(Schedule.spaced(every)),
          Effect.andThen(Effect.never)
        )

      return PixSettlements.of({
        notified,
        reconcile: reconcile(),
        settleReturn,
        sweepReturns: sweepReturns(),
        sweepCharges: sweepCharges(),
        registerWebhook: (url) => transactions.external(provider.registerWebhook(url)),
        run: ({ reconcileEvery, sweepEvery }) =>
          Effect.all(
            [
              forEver(reconcile(), reconcileEvery, "pix reconciliation"),
              forEver(sweepReturns(), sweepEvery, "pix returns sweep"),
              forEver(sweepCharges(), sweepEvery, "pix charges sweep")
            ],
            { concurrency: 3, discard: true }
          ).pipe(Effect.andThen(Effect.never))
      })
    })
  )
}
