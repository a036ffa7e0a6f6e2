// Use case: card charges made without holding a transaction or a lock while the acquirer answers (SPEC 4.1, 4.7).
// A charge is recorded first, under a reference of ours that the acquirer keeps as its idempotency key; it is sent
// outside any transaction; its answer is written afterwards, in a transaction of its own. A charge whose answer was
// lost (the process died, the answer did not come in time) is settled by asking the acquirer what became of it:
// by a repeat of its request under the same Idempotency-Key, or by the sweep. So a charge that happened is never
// lost, and never made twice.
import { type Cents, type Company, type Invoice, Ledger, Timestamp } from "@fatura/domain"
import { Context, Duration, Effect, Layer, Option, Result, Schedule } from "effect"
import { CardAcquirer, type CardChargeLookup, type CardChargeRequest } from "./CardAcquirer.js"
import * as Clock from "./Clock.js"
import { CompanyRepository, companyOf } from "./CompanyRepository.js"
import { AcquirerUnavailable, type StorageUnavailable } from "./Failures.js"
import * as InvoiceRecords from "./InvoiceRecords.js"
import { type CardCharge, InvoiceRepository, type NewInvoice } from "./InvoiceRepository.js"
import type { InvoiceView } from "./Invoices.js"
import { Transactions } from "./Transactions.js"

/**
 * How long the acquirer has to answer a charge. One that does not answer in time may still have charged: the charge
 * stays requested, and is settled by asking the acquirer once `staleChargeSeconds` have passed.
 */
export const chargeTimeout = Duration.seconds(20)

/** A charge still requested this long after it was sent lost its answer: the sweep asks the acquirer about it. */
export const staleChargeSeconds = 120

const batchSize = 100

/** What became of a charge when it was settled, and its invoice as it then is (none for a charge that created none). */
export interface SettledCharge {
  readonly state: "approved" | "refused" | "void"
  readonly view: InvoiceView | null
}

export class CardCharges extends Context.Service<
  CardCharges,
  {
    /**
     * Sends a recorded charge to the acquirer, outside any transaction, and settles it with the answer: pays or
     * refuses its invoice, creating it for a charge made while creating one. A charge the acquirer did not take is
     * void; one whose answer does not come within `chargeTimeout` stays requested for the sweep. Either fails as the
     * acquirer being unavailable.
     */
    readonly send: (
      charge: CardCharge,
      request: Omit<CardChargeRequest, "reference">
    ) => Effect.Effect<InvoiceView, AcquirerUnavailable | StorageUnavailable>
    /**
     * The charge with this reference, settled: asked about if it is still requested, never sent again. None when
     * no charge has that reference.
     */
    readonly resume: (
      reference: string
    ) => Effect.Effect<Option.Option<SettledCharge>, AcquirerUnavailable | StorageUnavailable>
    /**
     * Settles up to a batch of charges whose answer was lost (`staleChargeSeconds` old) at a time, until none is
     * left, by asking the acquirer; how many it settled. One the acquirer cannot tell about yet is left for later.
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
      const companies = yield* CompanyRepository
      const transactions = yield* Transactions
      const acquirer = yield* CardAcquirer
      const records = InvoiceRecords.make(invoices, companies)

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
       * by the request that sent it or by the sweep, stays as it is.
       */
      const settle = (sent: CardCharge, outcome: CardChargeLookup) =>
        transactions.withTransaction(
          Effect.gen(function* () {
            const now = yield* Clock.now
            // The lock order: the company, the invoice, then its charge. A charge that creates its invoice moves no
            // other invoice's money, and takes no company lock, as no create does.
            const company: Company.Company = yield* companyOf(
              sent.invoiceId === null ? companies.findById(sent.companyId) : invoices.lockCompanyLedger(sent.companyId),
              sent.companyId
            )
            const invoice =
              sent.invoiceId === null
                ? Option.none<Invoice.Invoice>()
                : yield* invoices.lock(sent.companyId, sent.mode, { _tag: "Id", id: sent.invoiceId })
            const charge = Option.getOrThrow(yield* invoices.lockCardCharge(sent.reference))
            if (charge.state !== "requested")
              return { state: charge.state, view: yield* viewOf(charge) } as SettledCharge
            if (outcome._tag === "Void") {
              yield* invoices.closeCardCharge(charge.reference, "void", null, now)
              return { state: "void", view: yield* viewOf(charge) } as SettledCharge
            }
            const refusedReason = outcome._tag === "Refused" ? outcome.reason : null
            const state = refusedReason === null ? "approved" : "refused"
            if (charge.draft !== null) {
              const draft: NewInvoice = {
                ...charge.draft.invoice,
                status: refusedReason === null ? "paid" : "refused",
                paidAt: refusedReason === null ? now : null,
                refusedReason,
                updatedAt: now
              }
              const view = yield* records.insertCreated(
                company,
                draft,
                charge.draft.client,
                charge.terms.cardAssociate,
                refusedReason === null
                  ? Ledger.onPaid("credit_card", draft.amount, charge.terms.fee.estimatedFee as Cents.Cents)
                  : [],
                yield* companies.totals(company.id, charge.mode, now)
              )
              yield* invoices.closeCardCharge(charge.reference, state, view.invoice.id, now)
              return { state, view } as SettledCharge
            }
            const view = yield* records.settleCardInvoice(
              company,
              Option.getOrThrow(invoice),
              charge.terms,
              refusedReason,
              now
            )
            yield* invoices.closeCardCharge(charge.reference, state, null, now)
            return { state, view } as SettledCharge
          })
        )

      const send = Effect.fn("CardCharges.send")(function* (
        charge: CardCharge,
        request: Omit<CardChargeRequest, "reference">
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
        const settled = yield* settle(charge, answer.success.value)
        // Voided meanwhile by the sweep, which asked the acquirer before the charge reached it: it was not made.
        if (settled.state === "void" || settled.view === null) {
          return yield* new AcquirerUnavailable({
            message: "the card acquirer did not take the charge; it was not made"
          })
        }
        return settled.view
      })

      /** Asks the acquirer what became of a charge whose answer was lost, and settles it. */
      const settleByLookup = (charge: CardCharge) =>
        transactions
          .external(acquirer.lookup(charge.mode, charge.reference))
          .pipe(Effect.flatMap((outcome) => settle(charge, outcome)))

      const resume = Effect.fn("CardCharges.resume")(function* (reference: string) {
        const charge = yield* invoices.findCardCharge(reference)
        if (Option.isNone(charge)) return Option.none<SettledCharge>()
        if (charge.value.state === "requested") return Option.some(yield* settleByLookup(charge.value))
        return Option.some<SettledCharge>({ state: charge.value.state, view: yield* viewOf(charge.value) })
      })

      const sweep = Effect.gen(function* () {
        let total = 0
        while (true) {
          const now = yield* Clock.now
          const stale = yield* invoices.staleCardCharges(Timestamp.plusSeconds(now, -staleChargeSeconds), batchSize)
          let settled = 0
          for (const charge of stale) {
            const done = yield* settleByLookup(charge).pipe(
              Effect.as(true),
              Effect.catchTag("AcquirerUnavailable", (unavailable) =>
                Effect.as(
                  Effect.logWarning("the acquirer could not say what became of a charge; it is asked again later", {
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
          if (stale.length < batchSize || settled === 0) return total
        }
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
