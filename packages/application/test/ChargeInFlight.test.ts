// A pending card invoice while its payer's charge waits for the acquirer, driven step by step over the in-memory
// ports: a stand-in acquirer that the test holds mid-charge. Nothing but the charge's answer moves the invoice
// meanwhile (issue 24: a sandbox expiry used to win, and the approved charge then wrote `paid` over `expired`). A
// charge answered when its invoice had moved on all the same pays nothing, and an approved one goes back to the card:
// recorded first, asked of the acquirer with nothing held, and, when its answer is lost, settled by asking about it.
import { describe, expect, it } from "@effect/vitest"
import type { Invoice } from "@fatura/domain"
import { Deferred, Effect, Exit, Fiber, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { CardAcquirer } from "../src/cards/CardAcquirer.js"
import { CardChargeRepository } from "../src/cards/CardChargeRepository.js"
import { CardCharges, staleChargeSeconds } from "../src/cards/CardCharges.js"
import { InvoiceRepository } from "../src/invoices/InvoiceRepository.js"
import { Invoices } from "../src/invoices/Invoices.js"
import { InvoiceLifecycle } from "../src/moves/InvoiceLifecycle.js"
import { Transactions } from "../src/platform/Transactions.js"
import * as TestApplication from "../src/testing/TestApplication.js"
import * as TestCardAcquirer from "../src/testing/TestCardAcquirer.js"
import { approvedCard, cardRequest, eventTypes, ledger, registerMerchant, startClock } from "./support/Merchant.js"

/**
 * The test acquirer, holding each charge until the test lets it through (`arrived` says one is held), and able to
 * lose a reversal: after making it (`answer`), or before it reaches the acquirer (`request`).
 */
const heldAcquirer = () => {
  const charges: TestCardAcquirer.Charges = new Map()
  const reversals: TestCardAcquirer.Reversals = new Map()
  const inner = TestCardAcquirer.make(charges, reversals)
  const arrived = Deferred.makeUnsafe<void>()
  const release = Deferred.makeUnsafe<void>()
  const state = { loseReversal: "nothing" as "nothing" | "answer" | "request", reverseCalls: 0 }
  const acquirer = CardAcquirer.of({
    ...inner,
    charge: (request) =>
      Deferred.succeed(arrived, undefined).pipe(
        Effect.andThen(Deferred.await(release)),
        Effect.andThen(inner.charge(request))
      ),
    reverse: (mode, reference) =>
      Effect.suspend(() => {
        state.reverseCalls += 1
        if (state.loseReversal === "request") return Effect.die(new Error("the reversal never reached the acquirer"))
        return Effect.flatMap(inner.reverse(mode, reference), (reversal) =>
          state.loseReversal === "answer"
            ? Effect.die(new Error("the acquirer's answer to the reversal was lost on its way"))
            : Effect.succeed(reversal)
        )
      })
  })
  const layer = TestApplication.withProviders(
    Layer.mergeAll(TestApplication.providers, Layer.succeed(CardAcquirer, acquirer))
  )
  const open = Deferred.succeed(release, undefined)
  return { charges, reversals, state, arrived, open, layer }
}

/** A pending card invoice, and its payer's payment held at the acquirer, running in a fiber of its own. */
const paymentHeldAtTheAcquirer = (acquirer: ReturnType<typeof heldAcquirer>) =>
  Effect.gen(function* () {
    yield* startClock
    const { principal } = yield* registerMerchant()
    const invoices = yield* Invoices
    // No card data: the invoice waits, pending, for its payer (SPEC 4.7).
    const { invoice } = yield* invoices.create(principal, cardRequest(null))
    const paying = yield* Effect.forkChild(invoices.payForPayer(invoice.secureId, invoice.tokenCheckout, approvedCard))
    yield* Deferred.await(acquirer.arrived)
    const charge = Option.getOrThrow(yield* (yield* CardChargeRepository).chargeInFlight(invoice.id))
    return { principal, invoice, paying, reference: charge.reference }
  })

describe("a card invoice whose payment waits for the acquirer (in memory)", () => {
  it.effect("nothing but the charge's answer moves it: every other move is refused, then the answer pays it", () => {
    const acquirer = heldAcquirer()
    return Effect.gen(function* () {
      const { principal, invoice, paying } = yield* paymentHeldAtTheAcquirer(acquirer)
      const lifecycle = yield* InvoiceLifecycle
      const invoices = yield* Invoices

      const refusals = [
        yield* Effect.flip(lifecycle.expire(principal, invoice.secureId)),
        yield* Effect.flip(invoices.payForPayer(invoice.secureId, invoice.tokenCheckout, approvedCard)),
        yield* Effect.flip(lifecycle.refund(principal, invoice.secureId, 1_000, null)),
        yield* Effect.flip(lifecycle.chargeback(principal, invoice.secureId))
      ]
      expect(refusals.map((refusal) => [refusal._tag, "reason" in refusal ? refusal.reason : refusal.message])).toEqual(
        ["expire", "pay", "refund", "charge back"].map((operation) => [
          "MoveNotAllowed",
          `cannot ${operation} an invoice whose card payment is waiting for the acquirer's answer`
        ])
      )
      expect((yield* invoices.find(principal, invoice.secureId)).invoice.status).toBe("pending")

      yield* acquirer.open
      const paid = yield* Fiber.join(paying)
      expect(paid.invoice.status).toBe("paid")
      const after = (yield* invoices.find(principal, invoice.secureId)).invoice
      expect(after.timeline.map((entry) => entry.status)).toEqual(["pending", "paid"])
      expect(ledger(after)).toEqual([
        ["payment", "credit", 10_000],
        ["fee", "debit", after.fee.estimatedFee]
      ])
      expect(yield* eventTypes(principal, invoice.secureId)).toEqual(["invoice.created", "invoice.paid"])
      expect(acquirer.reversals.size).toBe(0)
    }).pipe(Effect.provide(acquirer.layer))
  })

  /**
   * Moves the invoice as no use case does while a charge is in flight: by the repository's own hand (an operator's
   * fix in the database, a path written later that forgot the rule).
   */
  const expireBehindTheRulesBack = (invoice: Invoice.Invoice) =>
    Effect.gen(function* () {
      const repository = yield* InvoiceRepository
      yield* (yield* Transactions).withTransaction(
        Effect.gen(function* () {
          yield* repository.lockCompanyLedger(invoice.companyId)
          const locked = Option.getOrThrow(
            yield* repository.lock(invoice.companyId, invoice.mode, { _tag: "Id", id: invoice.id })
          )
          yield* repository.applyTransition(locked, {
            status: "expired",
            event: "invoice.expired",
            at: locked.updatedAt,
            paidAt: null,
            refundedAmount: locked.refundedAmount,
            movements: [],
            receivables: [],
            refund: null
          })
        })
      )
    })

  it.effect("a charge answered after its invoice moved on pays nothing, and is given back to the card", () => {
    const acquirer = heldAcquirer()
    return Effect.gen(function* () {
      const { principal, invoice, paying, reference } = yield* paymentHeldAtTheAcquirer(acquirer)
      yield* expireBehindTheRulesBack(invoice)

      yield* acquirer.open
      const refused = yield* Effect.flip(Fiber.join(paying))
      expect(refused).toMatchObject({ _tag: "MoveNotAllowed" })
      expect("reason" in refused && refused.reason).toMatch(/^cannot pay an invoice that is expired: /)

      const after = (yield* (yield* Invoices).find(principal, invoice.secureId)).invoice
      expect([after.status, after.paidAt, after.card, ledger(after)]).toEqual(["expired", null, null, []])
      expect(after.timeline.map((entry) => entry.status)).toEqual(["pending", "expired"])
      // The hand that expired it wrote no event; the charge writes none either.
      expect(yield* eventTypes(principal, invoice.secureId)).toEqual(["invoice.created"])
      expect(acquirer.charges.get(reference)).toEqual({ _tag: "Approved" })
      expect(acquirer.reversals.get(reference)).toEqual({ _tag: "Voided" })
      const charge = yield* (yield* CardChargeRepository).findCardCharge(reference)
      expect(charge).toMatchObject({ _tag: "Some", value: { state: "late", reversal: "voided" } })
    }).pipe(Effect.provide(acquirer.layer))
  })

  it.effect("a reversal whose answer was lost is settled by asking the acquirer, never asked for twice", () => {
    const acquirer = heldAcquirer()
    return Effect.gen(function* () {
      const { invoice, paying, reference } = yield* paymentHeldAtTheAcquirer(acquirer)
      yield* expireBehindTheRulesBack(invoice)
      acquirer.state.loseReversal = "answer"
      yield* acquirer.open
      expect(Exit.hasDies(yield* Fiber.await(paying))).toBe(true)
      acquirer.state.loseReversal = "nothing"
      const repository = yield* CardChargeRepository
      expect(yield* repository.findCardCharge(reference)).toMatchObject({
        value: { state: "late", reversal: "requested" }
      })

      const cardCharges = yield* CardCharges
      yield* TestClock.adjust(`${staleChargeSeconds - 1} seconds`)
      expect(yield* cardCharges.sweep).toBe(0)
      yield* TestClock.adjust("2 seconds")
      expect(yield* cardCharges.sweep).toBe(1)
      expect(yield* cardCharges.sweep).toBe(0)
      expect(yield* repository.findCardCharge(reference)).toMatchObject({
        value: { state: "late", reversal: "voided" }
      })
      expect(acquirer.state.reverseCalls).toBe(1)
    }).pipe(Effect.provide(acquirer.layer))
  })

  it.effect("a reversal that never reached the acquirer is asked for by the sweep, once the acquirer says so", () => {
    const acquirer = heldAcquirer()
    return Effect.gen(function* () {
      const { invoice, paying, reference } = yield* paymentHeldAtTheAcquirer(acquirer)
      yield* expireBehindTheRulesBack(invoice)
      acquirer.state.loseReversal = "request"
      yield* acquirer.open
      expect(Exit.hasDies(yield* Fiber.await(paying))).toBe(true)
      acquirer.state.loseReversal = "nothing"
      expect(acquirer.reversals.size).toBe(0)

      yield* TestClock.adjust(`${staleChargeSeconds + 1} seconds`)
      expect(yield* (yield* CardCharges).sweep).toBe(1)
      expect(acquirer.reversals.get(reference)).toEqual({ _tag: "Voided" })
      expect(yield* (yield* CardChargeRepository).findCardCharge(reference)).toMatchObject({
        value: { state: "late", reversal: "voided" }
      })
    }).pipe(Effect.provide(acquirer.layer))
  })
})
