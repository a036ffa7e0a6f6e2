// Creating invoices of each method (SPEC 4.1, 6), finding and listing them, and paying a card invoice from the
// payer's side (4.7), against the in-memory ports.
import { describe, expect, it } from "@effect/vitest"
import { Boleto, PixBrCode } from "@fatura/domain"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { CardTokens } from "../src/cards/CardTokens.js"
import { Authentication } from "../src/companies/Authentication.js"
import { Companies } from "../src/companies/Companies.js"
import type { ListQuery } from "../src/invoices/InvoiceInput.js"
import { Invoices } from "../src/invoices/Invoices.js"
import { Postbacks } from "../src/postbacks/Postbacks.js"
import * as TestBoletoIssuer from "../src/testing/TestBoletoIssuer.js"
import {
  approvedCard,
  boletoRequest,
  cardRequest,
  eventTypes,
  ledger,
  liveMode,
  pixRequest,
  provided,
  registerMerchant,
  timestamp
} from "./support/Merchant.js"

const listAll: ListQuery = {
  limit: 100,
  startingAfter: null,
  status: null,
  method: null,
  createdGte: null,
  createdLte: null,
  externalRef: null
}

describe("Invoices.create", () => {
  it.effect(
    "a pix invoice is pending, with a BR Code for its txid that expires after a day, and its created event",
    () =>
      provided(
        Effect.gen(function* () {
          const { principal } = yield* registerMerchant({ pixKey: "loja@example.com" })
          const { invoice, totals } = yield* (yield* Invoices).create(principal, pixRequest())
          expect(invoice).toMatchObject({ method: "pix", status: "pending", amount: 10_000, paidAt: null })
          expect(invoice.pix?.expiresAt).toBe(timestamp("2026-03-11T15:00:00.000Z"))
          expect(invoice.pix?.qrCode).toContain("loja@example.com")
          expect(invoice.pix?.qrCode).toContain(invoice.pix?.txid)
          expect(invoice.pix?.qrCode.slice(-4)).toBe(PixBrCode.crc16(invoice.pix!.qrCode.slice(0, -4)))
          expect(invoice.timeline.map((entry) => entry.status)).toEqual(["pending"])
          expect(invoice.movements).toEqual([])
          expect(totals.balancePix).toBe(0)
          expect(yield* eventTypes(principal, invoice.secureId)).toEqual(["invoice.created"])
        })
      )
  )

  it.effect("a pix invoice expires `expiresIn` seconds after it is created", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const { invoice } = yield* (yield* Invoices).create(principal, pixRequest({ expiresIn: 600 }))
        expect(invoice.pix?.expiresAt).toBe(timestamp("2026-03-10T15:10:00.000Z"))
      })
    )
  )

  it.effect("a boleto is pending, due in three São Paulo days, with an our number never handed out twice", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        // 2026-03-11 01:00 UTC is still the 10th in São Paulo.
        yield* TestClock.setTime(Date.parse("2026-03-11T01:00:00.000Z"))
        const first = (yield* invoices.create(principal, boletoRequest())).invoice
        const second = (yield* invoices.create(principal, boletoRequest({ dueDate: "2026-03-10" }))).invoice
        expect(first).toMatchObject({ method: "bank_slip", status: "pending" })
        expect(first.boleto?.dueDate).toBe("2026-03-13")
        expect(second.boleto?.dueDate).toBe("2026-03-10")
        expect(first.boleto?.ourNumber).not.toBe(second.boleto?.ourNumber)
        expect(Boleto.isValidBarcode(first.boleto!.barcode)).toBe(true)
        expect(Boleto.ourNumberOf(first.boleto!.barcode.slice(19))).toBe(first.boleto!.ourNumber.padStart(17, "0"))
        expect(first.boleto?.bankCode).toBe(TestBoletoIssuer.bankCode)
        expect(first.boleto?.url).toBe(
          `http://localhost:3000/api/v2/public/invoices/${first.secureId}/boleto.pdf?token=${first.tokenCheckout}`
        )
      })
    )
  )

  it.effect("a boleto due before today or more than 365 days ahead is refused, and nothing is stored", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        const past = yield* Effect.flip(invoices.create(principal, boletoRequest({ dueDate: "2026-03-09" })))
        const far = yield* Effect.flip(invoices.create(principal, boletoRequest({ dueDate: "2027-03-11" })))
        expect(past).toMatchObject({ _tag: "InvalidDueDate", dueDate: "2026-03-09" })
        expect(far).toMatchObject({ _tag: "InvalidDueDate", dueDate: "2027-03-11" })
        yield* invoices.create(principal, boletoRequest({ dueDate: "2027-03-10" }))
        expect((yield* invoices.list(principal, listAll)).invoices).toHaveLength(1)
      })
    )
  )

  it.effect(
    "an approved card invoice is paid at once: payment and fee in the ledger, the card balance net of the fee",
    () =>
      provided(
        Effect.gen(function* () {
          const { principal } = yield* registerMerchant()
          const { invoice, totals } = yield* (yield* Invoices).create(principal, cardRequest())
          expect(invoice).toMatchObject({ method: "credit_card", status: "paid", paidAt: invoice.createdAt })
          expect(invoice.timeline.map((entry) => entry.status)).toEqual(["pending", "paid"])
          // 3.99% + R$ 0,39 of R$ 100,00 (SPEC 7.2).
          expect(ledger(invoice)).toEqual([
            ["payment", "credit", 10_000],
            ["fee", "debit", 438]
          ])
          expect(totals).toMatchObject({ balanceCard: 9_562, amountInvoiceTotal: 10_000 })
          expect(invoice.card).toMatchObject({ brand: "visa", firstDigits: "411111", lastDigits: "1111" })
          expect(invoice.cardAssociate).toMatchObject({
            brand: "visa",
            lastDigits: "1111",
            clientId: invoice.client.id
          })
          expect(yield* eventTypes(principal, invoice.secureId)).toEqual(["invoice.created", "invoice.paid"])
        })
      )
  )

  it.effect("the created event of a card paid at once shows it as it was created: pending, no ledger, no balance", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const { invoice } = yield* (yield* Invoices).create(principal, cardRequest())
        const events = yield* (yield* Postbacks).events(principal, {
          limit: 10,
          startingAfter: null,
          type: null,
          invoice: invoice.secureId
        })
        const [paid, created] = events.events.map((event) => event.data as Record<string, any>)
        expect(created).toMatchObject({
          status: "pending",
          paidAt: null,
          financial_movements: [],
          enterprise: { balance_card: 0 }
        })
        expect(paid).toMatchObject({ status: "paid", enterprise: { balance_card: 9_562 } })
        expect(paid?.financial_movements).toHaveLength(2)
      })
    )
  )

  it.effect("a declined card leaves the invoice refused with its reason, and moves no money", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const { invoice, totals } = yield* (yield* Invoices).create(
          principal,
          cardRequest({ number: "4000000000000002" })
        )
        expect(invoice).toMatchObject({ status: "refused", refusedReason: "card_declined", paidAt: null })
        expect(invoice.movements).toEqual([])
        expect(totals).toMatchObject({ balanceCard: 0, amountInvoiceTotal: 0 })
        expect(yield* eventTypes(principal, invoice.secureId)).toEqual(["invoice.created", "invoice.refused"])
      })
    )
  )

  it.effect("once 3-D Secure is active, a card payment without it is refused even for a card that would pass", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        yield* (yield* Companies).activate3ds(principal)
        const unauthenticated = (yield* invoices.create(principal, cardRequest())).invoice
        const authenticated = (yield* invoices.create(principal, cardRequest({ eci: "05", cavv: "AAABBB" }))).invoice
        expect(unauthenticated).toMatchObject({ status: "refused", refusedReason: "authentication_required" })
        expect(authenticated.status).toBe("paid")
      })
    )
  )

  it.effect("a card invoice without a card waits, pending, for the payer at the checkout", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const { invoice } = yield* (yield* Invoices).create(principal, cardRequest(null))
        expect(invoice).toMatchObject({ status: "pending", card: null, cardAssociate: null, movements: [] })
      })
    )
  )

  it.effect("a company blocked for a method, or for processing, creates no invoice of it", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        const companies = yield* Companies
        yield* companies.setBlock(principal.companyId, "pix", true)
        expect(yield* Effect.flip(invoices.create(principal, pixRequest()))).toMatchObject({
          _tag: "CompanyBlocked",
          block: "pix"
        })
        expect((yield* invoices.create(principal, boletoRequest())).invoice.status).toBe("pending")
        yield* companies.setBlock(principal.companyId, "processing", true)
        expect(yield* Effect.flip(invoices.create(principal, boletoRequest()))).toMatchObject({
          _tag: "CompanyBlocked",
          block: "processing"
        })
      })
    )
  )

  it.effect("an amount out of range, or items that do not add up to it, are refused before anything is stored", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        const small = yield* Effect.flip(invoices.create(principal, cardRequest({}, { totalPriceCents: 99 })))
        const items = [{ name: "Caneca", description: null, quantity: 2, unitPrice: 2_500 }]
        const mismatch = yield* Effect.flip(invoices.create(principal, cardRequest({}, { items })))
        expect(small).toMatchObject({ _tag: "AmountOutOfRange", amount: 99 })
        expect(mismatch).toMatchObject({ _tag: "TotalMismatch", total: 10_000, itemsTotal: 5_000 })
        const { totals, invoices: stored } = yield* invoices.list(principal, listAll)
        expect(stored).toEqual([])
        expect(totals.balanceCard).toBe(0)
      })
    )
  )

  it.effect("one client per payer document: a later invoice refreshes the contact data every invoice shows", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        const first = (yield* invoices.create(principal, pixRequest())).invoice
        const payer = { ...pixRequest().payer, email: "maria.nova@example.com" }
        const second = (yield* invoices.create(principal, pixRequest({ payer }))).invoice
        expect(second.client.id).toBe(first.client.id)
        const reread = yield* invoices.find(principal, first.secureId)
        expect(reread.invoice.client.email).toBe("maria.nova@example.com")
        expect(reread.invoice.payer.email).toBe("maria@example.com")
      })
    )
  )
})

describe("Invoices.find and Invoices.list", () => {
  it.effect("finds the caller's invoice by secureId or id; another company's, or the other mode's, is not found", () =>
    provided(
      Effect.gen(function* () {
        const merchant = yield* registerMerchant()
        const other = yield* registerMerchant()
        const invoices = yield* Invoices
        const { invoice } = yield* invoices.create(merchant.principal, pixRequest())
        expect((yield* invoices.find(merchant.principal, invoice.secureId)).invoice.id).toBe(invoice.id)
        expect((yield* invoices.find(merchant.principal, String(invoice.id))).invoice.secureId).toBe(invoice.secureId)
        const live = yield* liveMode(merchant.principal)
        for (const [principal, reference] of [
          [other.principal, invoice.secureId],
          [other.principal, String(invoice.id)],
          [live, invoice.secureId]
        ] as const) {
          expect(yield* Effect.flip(invoices.find(principal, reference))).toMatchObject({ _tag: "InvoiceNotFound" })
        }
      })
    )
  )

  it.effect("lists newest first, a page at a time, with filters", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        const created = []
        for (const request of [pixRequest(), boletoRequest(), cardRequest(), pixRequest({ externalRef: "pedido-7" })]) {
          created.push((yield* invoices.create(principal, request)).invoice)
          yield* TestClock.adjust("1 minute")
        }
        const ids = created.map((invoice) => invoice.id)
        const first = yield* invoices.list(principal, { ...listAll, limit: 3 })
        expect(first.invoices.map((invoice) => invoice.id)).toEqual(ids.slice(1).reverse())
        expect(first.hasMore).toBe(true)
        const next = yield* invoices.list(principal, { ...listAll, limit: 3, startingAfter: String(ids[1]) })
        expect(next.invoices.map((invoice) => invoice.id)).toEqual([ids[0]])
        expect(next.hasMore).toBe(false)
        const pix = yield* invoices.list(principal, { ...listAll, method: "pix" })
        expect(pix.invoices.map((invoice) => invoice.id)).toEqual([ids[3], ids[0]])
        const paid = yield* invoices.list(principal, { ...listAll, status: "paid" })
        expect(paid.invoices.map((invoice) => invoice.id)).toEqual([ids[2]])
        const tagged = yield* invoices.list(principal, { ...listAll, externalRef: "pedido-7" })
        expect(tagged.invoices.map((invoice) => invoice.id)).toEqual([ids[3]])
        const later = yield* invoices.list(principal, { ...listAll, createdGte: created[2]!.createdAt })
        expect(later.invoices.map((invoice) => invoice.id)).toEqual([ids[3], ids[2]])
        expect(yield* Effect.flip(invoices.list(principal, { ...listAll, startingAfter: "999999" }))).toMatchObject({
          _tag: "UnknownCursor"
        })
      })
    )
  )
})

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
