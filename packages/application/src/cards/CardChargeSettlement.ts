// A card charge settled with its answer, in a transaction of its own: it pays or refuses its invoice (creating it, for
// a charge made while creating one), or, when its invoice was no longer pending (which no move allows while a charge is
// in flight, InvoiceRecords.refuseWhileCharging), it is closed `late` and pays nothing. If the acquirer approved a late
// charge, the money goes back to the card: the reversal is recorded first, asked of the acquirer with nothing held, and
// recorded as done after.
import { type Company, type Invoice, Moves } from "@fatura/domain"
import { Duration, Effect, Option, Result } from "effect"
import { CompanyRepository, companyOf } from "../companies/CompanyRepository.js"
import type { InvoiceView } from "../invoices/InvoiceInput.js"
import * as InvoiceRecords from "../invoices/InvoiceRecords.js"
import { InvoiceRepository, type NewInvoice } from "../invoices/InvoiceRepository.js"
import * as Clock from "../platform/Clock.js"
import type { StorageUnavailable } from "../platform/Failures.js"
import { Transactions } from "../platform/Transactions.js"
import { CardAcquirer, type CardChargeLookup, type CardReversal } from "./CardAcquirer.js"
import { type CardCharge, CardChargeRepository } from "./CardChargeRepository.js"

/**
 * How long the acquirer has to answer a charge. One that does not answer in time may still have charged: the charge
 * stays requested, and is settled by asking the acquirer once `staleChargeSeconds` have passed.
 */
export const chargeTimeout = Duration.seconds(20)

/**
 * What became of a charge when it was settled, and its invoice as it then is (none for a charge that created none).
 * A `late` charge paid nothing: its invoice was no longer pending when the acquirer's answer was written.
 */
export interface SettledCharge {
  readonly state: "approved" | "refused" | "void" | "late"
  readonly view: InvoiceView | null
}

/**
 * The company and its totals as the create that made a charge with its invoice to create read them: the invoice is
 * shown with them when the charge settles, as a create's invoice is.
 */
export interface Creator {
  readonly company: Company.Company
  readonly totals: Company.CompanyTotals
}

export const make = Effect.gen(function* () {
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
        if (charge.draft !== null) {
          // The invoice it was to create is pending until now: the charge's answer settles it as it is created.
          const settlement = yield* Effect.orDie(
            Effect.fromResult(
              Moves.settleCardCharge(charge.draft.invoice, charge.terms, refusedReason, now, company.feePlan)
            )
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
            settlement,
            creator?.totals ?? (yield* companies.totals(company.id, charge.mode, now))
          )
          yield* charges.closeCardCharge(charge.reference, state, view.invoice.id, now)
          return { settled: { state, view }, toGiveBack: false }
        }
        const pending = Option.getOrThrow(invoice)
        // The diagram's own move decides: a charge pays, or is refused for, only an invoice still pending.
        const settlement = Moves.settleCardCharge(pending, charge.terms, refusedReason, now, company.feePlan)
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
            Effect.logWarning("the acquirer did not answer the reversal of a late charge in time; it is asked later", {
              reference: charge.reference
            }),
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

  /** Asks the acquirer what became of a charge whose answer was lost, and settles it. */
  const settleByLookup = (charge: CardCharge) =>
    transactions
      .external(acquirer.lookup(charge.mode, charge.reference))
      .pipe(Effect.flatMap((outcome) => settleAndGiveBack(charge, outcome)))

  return { viewOf, settle, recordReversal, settleAndGiveBack, settleByLookup }
})

/** A charge's settlement, as the use case and the sweep call it. */
export type Settlement = Effect.Success<typeof make>
