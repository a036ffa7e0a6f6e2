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
import { type Cents, type Company, type Invoice, Moves, Timestamp } from "@fatura/domain"
import { Context, Duration, Effect, Layer, Option, Result, Schedule } from "effect"
import { CompanyRepository, companyOf } from "../companies/CompanyRepository.js"
import type { InvoiceView } from "../invoices/InvoiceInput.js"
import * as InvoiceRecords from "../invoices/InvoiceRecords.js"
import { InvoiceRepository, type NewInvoice } from "../invoices/InvoiceRepository.js"
import * as Clock from "../platform/Clock.js"
import { AcquirerUnavailable, type StorageUnavailable } from "../platform/Failures.js"
import { Transactions } from "../platform/Transactions.js"
import { CardAcquirer, type CardChargeLookup, type CardChargeRequest, type CardReversal } from "./CardAcquirer.js"
import { type CardCharge, CardChargeRepository } from "./CardChargeRepository.js"

/**
 * How long the acquirer has to answer a charge. One that does not answer in time may still have charged: the charge
 * stays requested, and is settled by asking the acquirer once `staleChargeSeconds` have passed.
 */
export const chargeTimeout = Duration.seconds(20)

/** A charge still requested this long after it was sent lost its answer: the sweep asks the acquirer about it. */
export const staleChargeSeconds = 120

const batchSize = 100

/**
 * What became of a charge when it was settled, and its invoice as it then is (none for a charge that created none).
 * A `late` charge paid nothing: its invoice was no longer pending when the acquirer's answer was written.
 */
export interface SettledCharge {
  readonly state: "approved" | "refused" | "void" | "late"
  readonly view: InvoiceView | null
}

/** A charge the acquirer took and that was settled: it paid or refused its invoice, or came too late to. */
export interface AnsweredCharge {
  readonly state: "approved" | "refused" | "late"
  readonly view: InvoiceView
}

/**
 * The company and its totals as the create that made a charge with its invoice to create read them: the invoice is
 * shown with them when the charge settles, as a create's invoice is.
 */
export interface Creator {
  readonly company: Company.Company
  readonly totals: Company.CompanyTotals
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
      const invoices = yield* InvoiceRepository
      const charges = yield* CardChargeRepository
      const companies = yield* CompanyRepository
      const transactions = yield* Transactions
      const acquirer = yield* CardAcquirer
      const records = yield* InvoiceRecords.make

      /** The invoice a settled charge names, as it is now; none for a charge that created nothing. */
      const viewOf = (charge: CardCharge) =>
        Effect.gen(function* () {
          if (charge.invoiceId === null) return null
          const found = yield* invoices.findWithCompany(
            charge.companyId,
            charge.mode,
            { _tag: "Id", id: charge.invoiceId },
            yield* Clock.now
          )
          return Option.getOrNull(found)
        })

      /**
       * Settles a requested charge with what became of it, in a transaction of its own; a charge already settled,
       * by the request that sent it or by the sweep, stays as it is. `toGiveBack` when this settlement closed an
       * approved charge `late`: its reversal is recorded, and is to be asked of the acquirer.
       */
      const settle = (sent: CardCharge, outcome: CardChargeLookup, creator?: Creator) =>
        transactions.withTransaction(
          Effect.gen(function* (): Effect.fn.Return<
            { readonly settled: SettledCharge; readonly toGiveBack: boolean },
            StorageUnavailable
          > {
            const now = yield* Clock.now
            // The lock order: the company, the invoice, then its charge. A charge that creates its invoice moves no
            // other invoice's money, and takes no company lock, as no create does.
            const company: Company.Company =
              sent.invoiceId === null && creator !== undefined
                ? creator.company
                : yield* companyOf(
                    sent.invoiceId === null
                      ? companies.findById(sent.companyId)
                      : invoices.lockCompanyLedger(sent.companyId),
                    sent.companyId
                  )
            const invoice =
              sent.invoiceId === null
                ? Option.none<Invoice.Invoice>()
                : yield* invoices.lock(sent.companyId, sent.mode, { _tag: "Id", id: sent.invoiceId })
            const charge = Option.getOrThrow(yield* charges.lockCardCharge(sent.reference))
            if (charge.state !== "requested") {
              return { settled: { state: charge.state, view: yield* viewOf(charge) }, toGiveBack: false }
            }
            if (outcome._tag === "Void") {
              yield* charges.closeCardCharge(charge.reference, "void", null, now)
              return { settled: { state: "void", view: yield* viewOf(charge) }, toGiveBack: false }
            }
            const refusedReason = outcome._tag === "Refused" ? outcome.reason : null
            const state = refusedReason === null ? "approved" : "refused"
            const fee = charge.terms.fee.estimatedFee as Cents.Cents
            if (charge.draft !== null) {
              // The invoice it was to create is pending until now: the charge's answer settles it as it is created.
              const settlement = yield* Effect.orDie(
                Effect.fromResult(Moves.settleCardCharge(charge.draft.invoice, fee, refusedReason, now))
              )
              const draft: NewInvoice = {
                ...charge.draft.invoice,
                status: settlement.status,
                paidAt: settlement.paidAt,
                refusedReason: settlement.refusedReason,
                updatedAt: now
              }
              const view = yield* records.insertCreated(
                company,
                draft,
                charge.draft.client,
                charge.terms.cardAssociate,
                settlement.movements,
                creator?.totals ?? (yield* companies.totals(company.id, charge.mode, now))
              )
              yield* charges.closeCardCharge(charge.reference, state, view.invoice.id, now)
              return { settled: { state, view }, toGiveBack: false }
            }
            const pending = Option.getOrThrow(invoice)
            // The diagram's own move decides: a charge pays, or is refused for, only an invoice still pending.
            const settlement = Moves.settleCardCharge(pending, fee, refusedReason, now)
            if (Result.isFailure(settlement)) {
              yield* charges.closeLateCardCharge(charge.reference, state === "approved", now)
              yield* Effect.logWarning("a card charge was answered after its invoice had moved on: it paid nothing", {
                reference: charge.reference,
                answer: state,
                invoiceStatus: pending.status
              })
              return { settled: { state: "late", view: yield* viewOf(charge) }, toGiveBack: state === "approved" }
            }
            const view = yield* records.settleCardInvoice(company, pending, charge.terms, settlement.success)
            yield* charges.closeCardCharge(charge.reference, state, null, now)
            return { settled: { state, view }, toGiveBack: false }
          })
        )

      /** Records how the acquirer gave a late charge back; one recorded already stays as it was. */
      const recordReversal = (charge: CardCharge, reversal: CardReversal) =>
        Effect.flatMap(Clock.now, (now) =>
          charges.closeCardChargeReversal(charge.reference, reversal._tag === "Voided" ? "voided" : "refunded", now)
        )

      /**
       * Asks the acquirer to give a late approved charge back, with nothing held, and records how it did; one it
       * could not be asked about, or whose answer did not come in time, stays requested for the sweep.
       */
      const giveBack = (charge: CardCharge) =>
        transactions.external(acquirer.reverse(charge.mode, charge.reference)).pipe(
          Effect.timeoutOption(chargeTimeout),
          Effect.flatMap(
            Option.match({
              onNone: () =>
                Effect.logWarning(
                  "the acquirer did not answer the reversal of a late charge in time; it is asked later",
                  {
                    reference: charge.reference
                  }
                ),
              onSome: (reversal) => recordReversal(charge, reversal)
            })
          ),
          Effect.catchTag("AcquirerUnavailable", (unavailable) =>
            Effect.logWarning("the reversal of a late charge could not be asked; it is asked later", {
              reference: charge.reference,
              reason: unavailable.message
            })
          )
        )

      /** Settles a charge with what became of it, and gives it back to the card when it came too late. */
      const settleAndGiveBack = (charge: CardCharge, outcome: CardChargeLookup, creator?: Creator) =>
        settle(charge, outcome, creator).pipe(
          Effect.tap(({ toGiveBack }) => (toGiveBack ? giveBack(charge) : Effect.void)),
          Effect.map(({ settled }) => settled)
        )

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

      /** Asks the acquirer what became of a charge whose answer was lost, and settles it. */
      const settleByLookup = (charge: CardCharge) =>
        transactions
          .external(acquirer.lookup(charge.mode, charge.reference))
          .pipe(Effect.flatMap((outcome) => settleAndGiveBack(charge, outcome)))

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

      const resume = Effect.fn("CardCharges.resume")(function* (reference: string) {
        const charge = yield* charges.findCardCharge(reference)
        if (Option.isNone(charge)) return Option.none<SettledCharge>()
        if (charge.value.state === "requested") return Option.some(yield* settleByLookup(charge.value))
        return Option.some<SettledCharge>({ state: charge.value.state, view: yield* viewOf(charge.value) })
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
