// The statement (SPEC 13.2): every ledger entry of the caller's company and mode, newest first, each with the balance
// and bucket it moved and the invoice it belongs to; its sums are the company's balances.
import { describe, expect, it } from "@effect/vitest"
import { Ledger } from "@fatura/domain"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { BalanceStatement, type OperationQuery } from "../src/balances/BalanceStatement.js"
import { Companies } from "../src/companies/Companies.js"
import { Invoices } from "../src/invoices/Invoices.js"
import { InvoiceLifecycle } from "../src/moves/InvoiceLifecycle.js"
import { cardRequest, liveMode, pixRequest, provided, registerMerchant, timestamp } from "./support/Merchant.js"

const everything: OperationQuery = {
  limit: 100,
  startingAfter: null,
  createdGte: null,
  createdLte: null,
  balance: null,
  type: null
}

describe("BalanceStatement.operations", () => {
  it.effect("lists every entry newest first, with its invoice, and sums to the company's balances", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        const lifecycle = yield* InvoiceLifecycle
        const statement = yield* BalanceStatement
        const pix = (yield* invoices.create(principal, pixRequest())).invoice
        yield* TestClock.adjust("1 minute")
        yield* lifecycle.pay(principal, pix.secureId)
        yield* TestClock.adjust("1 minute")
        const card = (yield* invoices.create(principal, cardRequest())).invoice
        yield* TestClock.adjust("1 minute")
        yield* lifecycle.refund(principal, pix.secureId, 1_000, null)
        // Another company's and the other mode's entries are not the caller's.
        yield* invoices.create((yield* registerMerchant()).principal, cardRequest())
        yield* invoices.create(yield* liveMode(principal), cardRequest())

        const page = yield* statement.operations(principal, everything)
        expect(page.hasMore).toBe(false)
        expect(
          page.operations.map((entry) => [entry.type, entry.direction, entry.balance, entry.bucket, entry.createdAt])
        ).toEqual([
          ["refund", "debit", "pix", "available", timestamp("2026-03-10T15:03:00.000Z")],
          ["fee", "debit", "card", "waiting", timestamp("2026-03-10T15:02:00.000Z")],
          ["payment", "credit", "card", "waiting", timestamp("2026-03-10T15:02:00.000Z")],
          ["fee", "debit", "pix", "available", timestamp("2026-03-10T15:01:00.000Z")],
          ["payment", "credit", "pix", "available", timestamp("2026-03-10T15:01:00.000Z")]
        ])
        expect(page.operations.map((entry) => entry.invoiceId)).toEqual([
          pix.secureId,
          card.secureId,
          card.secureId,
          pix.secureId,
          pix.secureId
        ])
        const { totals } = yield* (yield* Companies).info(principal)
        const sum = (balance: string, bucket: string) =>
          page.operations
            .filter((entry) => entry.balance === balance && entry.bucket === bucket)
            .reduce((s, entry) => s + Ledger.signed(entry), 0)
        expect(
          ["pix", "card", "bank_slip"].flatMap((balance) => [sum(balance, "available"), sum(balance, "waiting")])
        ).toEqual([
          totals.balancePix,
          totals.waitingPix,
          totals.balanceCard,
          totals.waitingCard,
          totals.balanceBankSlip,
          totals.waitingBankSlip
        ])
      })
    )
  )

  it.effect("pages after an entry of the caller's, and refuses one of another company or mode", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const statement = yield* BalanceStatement
        const invoices = yield* Invoices
        for (let n = 0; n < 3; n++) yield* invoices.create(principal, cardRequest())
        const all = (yield* statement.operations(principal, everything)).operations.map((entry) => entry.id)

        const first = yield* statement.operations(principal, { ...everything, limit: 4 })
        expect([first.operations.map((entry) => entry.id), first.hasMore]).toEqual([all.slice(0, 4), true])
        const rest = yield* statement.operations(principal, { ...everything, limit: 4, startingAfter: all[3]! })
        expect([rest.operations.map((entry) => entry.id), rest.hasMore]).toEqual([all.slice(4), false])
        expect(
          (yield* statement.operations(principal, { ...everything, type: "fee" })).operations.map((e) => e.type)
        ).toEqual(["fee", "fee", "fee"])

        for (const caller of [(yield* registerMerchant()).principal, yield* liveMode(principal)]) {
          const refused = yield* Effect.flip(statement.operations(caller, { ...everything, startingAfter: all[0]! }))
          expect(refused).toMatchObject({ _tag: "UnknownCursor", cursor: String(all[0]) })
        }
      })
    )
  )
})
