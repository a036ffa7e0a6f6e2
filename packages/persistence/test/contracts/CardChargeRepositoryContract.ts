// The CardChargeRepository contract, as card payments rely on it: a charge is recorded before the acquirer is asked,
// with its terms and the invoice it is to create; it is closed with what became of it, or as late and then given back
// once; the sweeps find what is still requested, oldest first.
import { expect } from "@effect/vitest"
import {
  type CardCharge,
  CardChargeRepository,
  ClientRepository,
  type NewInvoice,
  Transactions
} from "@fatura/application"
import { Cents, type Company, Timestamp } from "@fatura/domain"
import { Effect, Option } from "effect"
import {
  aCompany,
  anInvoice,
  at,
  card,
  cardToAssociate,
  draft,
  freshEra,
  lockForCardMove,
  lockForMove,
  payer
} from "../support/Fixtures.js"
import type { Contract } from "../support/TestDatabases.js"

/** A charge of a new card invoice of `company`, recorded at `requestedAt` with the invoice it is to create. */
const aDraftCharge = (company: Company.Company, reference: string, requestedAt: Timestamp.Timestamp) =>
  Effect.gen(function* () {
    const clients = yield* ClientRepository
    const charges = yield* CardChargeRepository
    const invoice: NewInvoice = draft(company, { method: "credit_card", createdAt: requestedAt })
    const client = yield* clients.upsertClient({
      companyId: company.id,
      mode: "test",
      document: payer.document,
      name: payer.name,
      email: payer.email,
      phone: payer.phone,
      now: requestedAt
    })
    const cardAssociate = yield* clients.associateCard(cardToAssociate(company, client.id, requestedAt))
    const charge: Omit<CardCharge, "state" | "reversal"> = {
      reference,
      invoiceId: null,
      companyId: company.id,
      mode: "test",
      terms: { installments: 2, fee: invoice.fee, card, cardAssociate },
      draft: { invoice, client },
      requestedAt
    }
    yield* charges.recordCardCharge(charge)
    return charge
  })

export const cardChargeRepositoryContract: Contract = (it) => {
  it.effect("keeps a charge as recorded, with its terms and the invoice it is to create, until it is closed", () =>
    Effect.gen(function* () {
      const charges = yield* CardChargeRepository
      const transactions = yield* Transactions
      const company = yield* aCompany()
      const reference = `ch_draft_${company.id}`
      const charge = yield* aDraftCharge(company, reference, at(0))

      expect(yield* charges.findCardCharge(reference)).toEqual(
        Option.some({ ...charge, state: "requested", reversal: null })
      )
      expect(yield* charges.findCardCharge(`${reference}_unknown`)).toEqual(Option.none())
      const created = yield* anInvoice(company, { ...charge.draft!.invoice, status: "paid", paidAt: at(5) })
      yield* transactions.withTransaction(
        Effect.gen(function* () {
          expect(Option.getOrThrow(yield* charges.lockCardCharge(reference)).state).toBe("requested")
          yield* charges.closeCardCharge(reference, "approved", created.id, at(5))
        })
      )
      expect(yield* charges.findCardCharge(reference)).toEqual(
        Option.some({ ...charge, invoiceId: created.id, draft: null, state: "approved", reversal: null })
      )
    })
  )

  it.effect("finds the charges still requested since before an instant, oldest first", () =>
    Effect.gen(function* () {
      const charges = yield* CardChargeRepository
      const transactions = yield* Transactions
      const era = yield* freshEra
      const company = yield* aCompany()
      const later = yield* aDraftCharge(company, `ch_later_${company.id}`, Timestamp.plusSeconds(era, 10))
      const first = yield* aDraftCharge(company, `ch_first_${company.id}`, era)
      const closed = yield* aDraftCharge(company, `ch_closed_${company.id}`, Timestamp.plusSeconds(era, 5))
      yield* transactions.withTransaction(charges.closeCardCharge(closed.reference, "refused", null, era))
      const staleBefore = (seconds: number, limit = 10) =>
        Effect.map(charges.staleCardCharges(Timestamp.plusSeconds(era, seconds), limit), (stale) =>
          stale.map((charge) => charge.reference)
        )

      expect(yield* staleBefore(0)).toEqual([])
      expect(yield* staleBefore(1)).toEqual([first.reference])
      expect(yield* staleBefore(11)).toEqual([first.reference, later.reference])
      expect(yield* staleBefore(11, 1)).toEqual([first.reference])
    })
  )

  it.effect("closes a charge answered too late, and records once how the acquirer gave it back", () =>
    Effect.gen(function* () {
      const charges = yield* CardChargeRepository
      const transactions = yield* Transactions
      const company = yield* aCompany()
      const invoice = yield* anInvoice(company, { method: "credit_card", amount: Cents.make(20_000) })
      const reference = `ch_late_${invoice.id}`
      const requested = yield* transactions.withTransaction(
        Effect.gen(function* () {
          const { locked, cardAssociate } = yield* lockForCardMove(company, invoice, at(0))
          yield* charges.recordCardCharge({
            reference,
            invoiceId: invoice.id,
            companyId: company.id,
            mode: "test",
            terms: { installments: 1, fee: locked.fee, card, cardAssociate },
            draft: null,
            requestedAt: at(0)
          })
          return Option.getOrThrow(yield* charges.chargeInFlight(invoice.id))
        })
      )
      expect(requested).toMatchObject({ reference, state: "requested", reversal: null })

      yield* transactions.withTransaction(
        Effect.gen(function* () {
          yield* lockForMove(company, invoice)
          yield* charges.lockCardCharge(reference)
          yield* charges.closeLateCardCharge(reference, true, at(10))
        })
      )
      expect(yield* charges.chargeInFlight(invoice.id)).toEqual(Option.none())
      expect(yield* charges.findCardCharge(reference)).toMatchObject({
        value: { state: "late", reversal: "requested", draft: null }
      })
      const staleBefore = (seconds: number) =>
        Effect.map(charges.staleCardChargeReversals(at(seconds), 1_000), (stale) =>
          stale.filter((charge) => charge.reference === reference).map((charge) => charge.reversal)
        )
      expect(yield* staleBefore(10)).toEqual([])
      expect(yield* staleBefore(11)).toEqual(["requested"])

      yield* charges.closeCardChargeReversal(reference, "refunded", at(20))
      yield* charges.closeCardChargeReversal(reference, "voided", at(30))
      expect(yield* charges.findCardCharge(reference)).toMatchObject({
        value: { state: "late", reversal: "refunded" }
      })
      expect(yield* staleBefore(60)).toEqual([])
    })
  )
}
