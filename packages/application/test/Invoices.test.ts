// Creating invoices of each method (SPEC 4.1, 6) against the in-memory ports; finding and listing them is in
// InvoiceQueries.test.ts, the payer's card payment (4.7) in PayerCardPayment.test.ts.
import { describe, expect, it } from "@effect/vitest"
import { Boleto, PixBrCode } from "@fatura/domain"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { Companies } from "../src/companies/Companies.js"
import { Invoices } from "../src/invoices/Invoices.js"
import { Postbacks } from "../src/postbacks/Postbacks.js"
import * as TestBoletoIssuer from "../src/testing/TestBoletoIssuer.js"
import {
  boletoRequest,
  cardRequest,
  eventTypes,
  ledger,
  listAll,
  pixRequest,
  provided,
  registerMerchant,
  timestamp
} from "./support/Merchant.js"

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
          // Waiting for its installment's day, 30 days on (SPEC 13.1).
          expect(totals).toMatchObject({ balanceCard: 0, waitingCard: 9_562, amountInvoiceTotal: 10_000 })
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
          enterprise: { balance_card: 0, waiting_funds_card: 0 }
        })
        expect(paid).toMatchObject({ status: "paid", enterprise: { balance_card: 0, waiting_funds_card: 9_562 } })
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
