// Paying a card invoice from the payer's side (SPEC 4.7), against the in-memory ports.
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { CardTokens } from "../src/cards/CardTokens.js"
import { Authentication } from "../src/companies/Authentication.js"
import { Invoices } from "../src/invoices/Invoices.js"
import {
  approvedCard,
  cardRequest,
  eventTypes,
  ledger,
  pixRequest,
  provided,
  registerMerchant
} from "./support/Merchant.js"

describe("Invoices.payForPayer", () => {
  it.effect("the payer pays a pending card invoice with a card token, which then cannot pay again", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        const pending = (yield* invoices.create(principal, cardRequest(null))).invoice
        const another = (yield* invoices.create(principal, cardRequest(null))).invoice
        const checkout = yield* invoices.checkout(pending.secureId, pending.tokenCheckout)
        const payer = yield* (yield* Authentication).authenticatePublic(checkout.publicToken)
        const { token } = yield* (yield* CardTokens).tokenize(payer, {
          number: approvedCard.number!,
          firstName: "Maria",
          lastName: "Souza",
          month: "12",
          year: "2030",
          securityCode: "123"
        })
        const card = { ...approvedCard, number: null, securityCode: null, token }
        const paid = yield* invoices.payForPayer(pending.secureId, pending.tokenCheckout, card)
        expect(paid.invoice).toMatchObject({ status: "paid", card: { lastDigits: "1111", holderName: "Maria Souza" } })
        expect(ledger(paid.invoice)).toEqual([
          ["payment", "credit", 10_000],
          ["fee", "debit", 438]
        ])
        const again = yield* Effect.flip(invoices.payForPayer(another.secureId, another.tokenCheckout, card))
        expect(again).toMatchObject({ _tag: "InvalidCardData", field: "card.token" })
        expect((yield* invoices.find(principal, another.secureId)).invoice.status).toBe("pending")
        expect(yield* eventTypes(principal, pending.secureId)).toEqual(["invoice.created", "invoice.paid"])
      })
    )
  )

  it.effect("a card token expires 15 minutes after it is made", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        const pending = (yield* invoices.create(principal, cardRequest(null))).invoice
        const { publicToken } = yield* invoices.checkout(pending.secureId, pending.tokenCheckout)
        const payer = yield* (yield* Authentication).authenticatePublic(publicToken)
        const { token } = yield* (yield* CardTokens).tokenize(payer, {
          number: approvedCard.number!,
          firstName: "Maria",
          lastName: "Souza",
          month: "12",
          year: "2030",
          securityCode: "123"
        })
        yield* TestClock.adjust("15 minutes")
        const late = yield* Effect.flip(
          invoices.payForPayer(pending.secureId, pending.tokenCheckout, { ...approvedCard, token })
        )
        expect(late).toMatchObject({ _tag: "InvalidCardData", field: "card.token" })
      })
    )
  )

  it.effect("only a pending card invoice is paid from the payer's side, and only with its checkout token", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        const pix = (yield* invoices.create(principal, pixRequest())).invoice
        const paid = (yield* invoices.create(principal, cardRequest())).invoice
        const pending = (yield* invoices.create(principal, cardRequest(null))).invoice
        for (const invoice of [pix, paid]) {
          expect(
            yield* Effect.flip(invoices.payForPayer(invoice.secureId, invoice.tokenCheckout, approvedCard))
          ).toMatchObject({ _tag: "MoveNotAllowed" })
        }
        expect(
          yield* Effect.flip(invoices.payForPayer(pending.secureId, paid.tokenCheckout, approvedCard))
        ).toMatchObject({ _tag: "InvoiceNotFound" })
      })
    )
  )
})
