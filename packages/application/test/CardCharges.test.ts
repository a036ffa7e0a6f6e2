// Card charges over the in-memory ports: a charge whose answer was lost on its way back is recorded, invisible until
// it settles, left alone by the sweep while it may still be answered, and then settled from what the acquirer says
// became of it — charged once, never again; one the acquirer never received is voided and creates nothing.
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { TestClock } from "effect/testing"
import { CardAcquirer } from "../src/cards/CardAcquirer.js"
import { CardChargeRepository } from "../src/cards/CardChargeRepository.js"
import { CardCharges, staleChargeSeconds } from "../src/cards/CardCharges.js"
import { Invoices } from "../src/invoices/Invoices.js"
import * as TestApplication from "../src/testing/TestApplication.js"
import * as TestCardAcquirer from "../src/testing/TestCardAcquirer.js"
import { cardRequest, ledger, registerMerchant, startClock } from "./support/Merchant.js"

const listAll = {
  limit: 10,
  startingAfter: null,
  status: null,
  method: null,
  createdGte: null,
  createdLte: null,
  externalRef: null
}

/** The test acquirer, whose answers can be lost after it charged, or which can never receive a charge. */
const losingAcquirer = () => {
  const charges: TestCardAcquirer.Charges = new Map()
  const inner = TestCardAcquirer.make(charges)
  const state = { lose: "nothing" as "nothing" | "answer" | "request" }
  const acquirer = CardAcquirer.of({
    ...inner,
    charge: (request) => {
      if (state.lose === "request") return Effect.die(new Error("the charge never reached the acquirer"))
      return Effect.flatMap(inner.charge(request), (result) =>
        state.lose === "answer"
          ? Effect.die(new Error("the acquirer's answer was lost on its way"))
          : Effect.succeed(result)
      )
    }
  })
  const layer = TestApplication.withProviders(
    Layer.mergeAll(TestApplication.providers, Layer.succeed(CardAcquirer, acquirer))
  )
  return { charges, state, layer }
}

describe("CardCharges (in memory)", () => {
  it.effect("settles a charge whose answer was lost once it is stale, from the acquirer's word, charging once", () => {
    const acquirer = losingAcquirer()
    return Effect.gen(function* () {
      yield* startClock
      const { principal } = yield* registerMerchant()
      const invoices = yield* Invoices
      const cardCharges = yield* CardCharges

      acquirer.state.lose = "answer"
      expect(
        Exit.hasDies(yield* Effect.exit(invoices.create(principal, cardRequest({}, { externalRef: "lost" }))))
      ).toBe(true)
      acquirer.state.lose = "nothing"
      expect(acquirer.charges.size).toBe(1)
      expect((yield* invoices.list(principal, listAll)).invoices).toEqual([])

      // Within its time to answer, the charge is left alone.
      yield* TestClock.adjust(`${staleChargeSeconds - 1} seconds`)
      expect(yield* cardCharges.sweep).toBe(0)
      yield* TestClock.adjust("2 seconds")
      expect(yield* cardCharges.sweep).toBe(1)
      expect(yield* cardCharges.sweep).toBe(0)

      const [paid] = (yield* invoices.list(principal, listAll)).invoices
      expect([paid?.externalRef, paid?.status]).toEqual(["lost", "paid"])
      expect(ledger(paid!)).toEqual([
        ["payment", "credit", 10_000],
        ["fee", "debit", paid!.fee.estimatedFee]
      ])
      expect(acquirer.charges.size).toBe(1)
    }).pipe(Effect.provide(acquirer.layer))
  })

  it.effect("voids a charge the acquirer never received: no invoice, and a new payment may be made", () => {
    const acquirer = losingAcquirer()
    return Effect.gen(function* () {
      yield* startClock
      const { principal } = yield* registerMerchant()
      const invoices = yield* Invoices
      const repository = yield* CardChargeRepository

      acquirer.state.lose = "request"
      yield* Effect.exit(invoices.create(principal, cardRequest({}, { externalRef: "never sent" })))
      acquirer.state.lose = "nothing"
      yield* TestClock.adjust(`${staleChargeSeconds + 1} seconds`)
      expect(yield* (yield* CardCharges).sweep).toBe(1)

      expect((yield* invoices.list(principal, listAll)).invoices).toEqual([])
      expect([...acquirer.charges.values()]).toEqual([{ _tag: "Void" }])
      const [reference] = [...acquirer.charges.keys()]
      const charge = yield* repository.findCardCharge(reference!)
      expect(charge).toMatchObject({ _tag: "Some", value: { state: "void", draft: null, invoiceId: null } })

      const created = yield* invoices.create(principal, cardRequest({}, { externalRef: "again" }))
      expect(created.invoice.status).toBe("paid")
    }).pipe(Effect.provide(acquirer.layer))
  })
})
