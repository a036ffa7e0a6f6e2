// Use case: what a pix provider says after a charge was made — pix received and returns settled — turned into
// payments and refunds through the same moves, ledger and events as every other one. A notification is not signed,
// so it is only a hint: each pix it names is asked of the provider (and its charge) before anything is paid; a pix
// that pays nothing (another amount, an invoice no longer pending) is returned to its payer whole. A reconciliation
// lists what the provider received, for the notifications that never came. A return (a pix refund) is asked for with
// its balance already held, and closed when the provider says how it ended — a return the provider refuses when it is
// asked for has ended too, refused. Every step is idempotent: a pix pays its invoice once, a return closes once. No
// provider is asked inside a transaction.
//
// A notification, which anyone can send, costs a bounded number of provider calls: the same pix or return named twice
// is asked about once, returns are looked up only under a pix the provider confirmed (all of them in one read), and
// past a budget of calls what it names is left to the reconciliation and the sweep.
import { Cents, type Invoice, Moves, Timestamp } from "@fatura/domain"
import { Context, Data, type Duration, Effect, Layer, Option, Result, Schedule } from "effect"
import { companyOf } from "../companies/CompanyRepository.js"
import type { InvoiceView } from "../invoices/InvoiceInput.js"
import * as InvoiceRecords from "../invoices/InvoiceRecords.js"
import { InvoiceRepository } from "../invoices/InvoiceRepository.js"
import * as Clock from "../platform/Clock.js"
import { PixProviderUnavailable, type StorageUnavailable } from "../platform/Failures.js"
import { randomUuid } from "../platform/Secrets.js"
import { Transactions } from "../platform/Transactions.js"
import {
  PixProvider,
  type PixProviderFailure,
  type PixReturnRequest,
  type PixReturnState,
  type ReceivedPix
} from "./PixProvider.js"
import { type PendingRefund, type PixRejection, PixReturnRepository } from "./PixReturnRepository.js"

/** How long a return may stay unanswered before the sweep asks the provider about it. */
export const staleReturnSeconds = 60

/** How far back the first reconciliation lists, and how much each one lists again of what the last one did. */
const firstListingSeconds = 86_400
const listingOverlapSeconds = 120

const batchSize = 100

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

/** What became of a received pix. */
export type PixOutcome = "paid" | "already_paid" | "rejected" | "unmatched"

/** A notification's calls of the provider are spent: its own budget, or the allowance every notification shares. */
class CallsSpent extends Data.TaggedError("CallsSpent")<{ readonly by: "notification" | "platform" }> {}

/** How a step calls the provider: as it is, or within a notification's budget (failing with `E` once it is spent). */
type Ask<E> = <A, E1>(call: Effect.Effect<A, E1>) => Effect.Effect<A, E1 | E>

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
      notification: ReadonlyArray<PixNotification>,
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
     * Tells the provider where to notify; `<url>/pix` is Fatura's notification endpoint. `PixProviderRefused` when
     * it will not take the URL: asking again is no use.
     */
    readonly registerWebhook: (url: string) => Effect.Effect<void, PixProviderFailure>
    /**
     * Reconciles every `reconcileEvery` and sweeps returns every `sweepEvery`, for ever; a failed round is logged
     * and tried again at the next tick.
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
      const records = yield* InvoiceRecords.make

      /** The invoice and its company, both locked for the enclosing transaction (company first, then invoice). */
      const locked = Effect.fnUntraced(function* (invoice: Invoice.Invoice) {
        const company = yield* companyOf(invoices.lockCompanyLedger(invoice.companyId), invoice.companyId)
        const current = yield* invoices.lock(invoice.companyId, invoice.mode, { _tag: "Id", id: invoice.id })
        return { company, invoice: Option.getOrThrow(current) }
      })

      /** Pays the invoice of a pix, in a transaction; a pix that pays nothing is recorded, with its return to make. */
      const settlePix = Effect.fnUntraced(function* (received: ReceivedPix) {
        const log = { endToEndId: received.endToEndId, txid: received.txid, amount: received.amount }
        if (received.txid === null) {
          yield* Effect.logWarning("pix received without a charge: nothing to pay", log)
          return "unmatched" as PixOutcome
        }
        const found = yield* invoices.findByPixTxid(received.txid)
        if (Option.isNone(found)) {
          yield* Effect.logWarning("pix received for a charge of no invoice", log)
          return "unmatched" as PixOutcome
        }
        if (found.value.pix?.endToEndId === received.endToEndId) return "already_paid" as PixOutcome
        return yield* transactions.withTransaction(
          Effect.gen(function* () {
            const { company, invoice } = yield* locked(found.value)
            if (invoice.pix?.endToEndId === received.endToEndId) return "already_paid" as PixOutcome
            const now = yield* Clock.now
            const paid = Moves.pay(invoice, now, received)
            if (Result.isFailure(paid)) {
              const refusal =
                paid.failure._tag === "PaymentMismatch"
                  ? `a pix of ${Cents.formatBRL(received.amount)} arrived for an invoice of ${Cents.formatBRL(invoice.amount)}`
                  : `a pix arrived for an invoice that is ${invoice.status}`
              const reason =
                `${refusal} (end-to-end id ${received.endToEndId}): the invoice was not paid by it, and the pix is ` +
                "returned to its payer"
              const rejection: PixRejection = {
                endToEndId: received.endToEndId,
                invoiceId: invoice.id,
                amount: received.amount,
                returnId: `R${randomUuid().replaceAll("-", "")}`,
                returnState: "pending",
                createdAt: now
              }
              if (!(yield* returns.recordPixRejection({ ...rejection, reason, at: now }))) {
                return "rejected" as PixOutcome
              }
              yield* Effect.logWarning("pix rejected", { ...log, invoiceId: invoice.id, reason })
              yield* records.recordEvent(company, invoice, "invoice.payment_rejected", now, reason)
              return rejection
            }
            yield* records.move(company, invoice, paid.success)
            yield* Effect.logInfo("pix paid its invoice", { ...log, invoiceId: invoice.id })
            return "paid" as PixOutcome
          })
        )
      })

      /** Closes a pending return with how it ended, in a transaction; false when another answer closed it first. */
      const close = Effect.fnUntraced(function* (pending: PendingRefund, state: PixReturnState) {
        if (state._tag === "Processing") return false
        const found = yield* invoices.findById(pending.invoiceId)
        return yield* transactions.withTransaction(
          Effect.gen(function* () {
            const { company, invoice } = yield* locked(Option.getOrThrow(found))
            const now = yield* Clock.now
            // A pending refund holds part of a paid or partially refunded invoice: nothing moves it elsewhere (pix
            // has no chargeback), so its success is always a move the diagram allows.
            const settlement = yield* Effect.orDie(
              Effect.fromResult(Moves.settleReturn(invoice, pending.amount, state, now))
            )
            if (settlement._tag === "Refused") {
              const reason = `the pix provider refused the refund: ${settlement.reason}`
              const closed = yield* returns.closePendingRefund(
                invoice,
                pending.id,
                { status: "failed", reason, movements: settlement.movements },
                now
              )
              if (Option.isNone(closed)) return false
              yield* records.recordEvent(company, closed.value, settlement.event, now, reason)
              return true
            }
            const closed = yield* returns.closePendingRefund(invoice, pending.id, { status: "succeeded" }, now)
            if (Option.isNone(closed)) return false
            yield* records.move(company, closed.value, settlement.transition)
            return true
          })
        )
      })

      /** The steps that call the provider, each call made through `ask`. */
      const steps = <E>(ask: Ask<E>) => {
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

        const settle = Effect.fnUntraced(function* (pending: PendingRefund) {
          if (pending.status !== "pending") return false
          const state = yield* returnState({
            endToEndId: pending.endToEndId,
            returnId: pending.returnId,
            amount: pending.amount,
            reason: null
          })
          return yield* close(pending, state)
        })

        return { returnRejected, apply, confirm, settle }
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

      const notified = Effect.fn("PixSettlements.notified")(function* (
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
        registerWebhook: (url) => transactions.external(provider.registerWebhook(url)),
        run: ({ reconcileEvery, sweepEvery }) =>
          Effect.all(
            [
              forEver(reconcile(), reconcileEvery, "pix reconciliation"),
              forEver(sweepReturns(), sweepEvery, "pix returns sweep")
            ],
            { concurrency: 2, discard: true }
          ).pipe(Effect.andThen(Effect.never))
      })
    })
  )
}
