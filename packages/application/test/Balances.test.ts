// A company's balances and paid totals (SPEC 5.3, 7.4), as the moves of its invoices leave them.
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Companies } from "../src/companies/Companies.js"
import { Invoices } from "../src/invoices/Invoices.js"
import { InvoiceLifecycle } from "../src/moves/InvoiceLifecycle.js"
import { boletoRequest, cardRequest, liveMode, pixRequest, provided, registerMerchant } from "./support/Merchant.js"

describe("Companies.info", () => {
  it.effect("balances are the ledger's sums per method, and test money never mixes with live money", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        const lifecycle = yield* InvoiceLifecycle
        const pix = (yield* invoices.create(principal, pixRequest())).invoice
        yield* lifecycle.pay(principal, pix.secureId)
        const boleto = (yield* invoices.create(principal, boletoRequest())).invoice
        yield* lifecycle.pay(principal, boleto.secureId)
        yield* invoices.create(principal, cardRequest())
        yield* invoices.create(principal, pixRequest())
        const live = yield* liveMode(principal)
        yield* invoices.create(live, cardRequest({}, { totalPriceCents: 30_000 }))
        const companies = yield* Companies
        const test = yield* companies.info(principal)
        // A pix is available at once; a boleto and a card wait for their receivables' days (SPEC 13.1).
        expect(test.totals).toEqual({
          balancePix: 10_000 - 199,
          balanceCard: 0,
          balanceBankSlip: 0,
          waitingPix: 0,
          waitingCard: 10_000 - 438,
          waitingBankSlip: 10_000 - 349,
          amountInvoiceTotal: 30_000,
          amountInvoicesCompeticion: 30_000
        })
        expect((yield* companies.info(live)).totals).toMatchObject({
          balancePix: 0,
          balanceCard: 0,
          waitingCard: 30_000 - 1_236,
          amountInvoiceTotal: 30_000
        })
      })
    )
  )
})
