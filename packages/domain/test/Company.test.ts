import { describe, expect, it } from "@effect/vitest"
import { Cents, Company, Ledger } from "../src/index.js"

describe("Company.totalsAfter", () => {
  const before: Company.CompanyTotals = {
    balancePix: 1_000,
    balanceCard: -50,
    balanceBankSlip: 0,
    amountInvoiceTotal: 20_000,
    amountInvoicesCompeticion: 5_000
  }

  it("adds a payment's entries to its balance and its amount to the paid totals", () => {
    expect(
      Company.totalsAfter(before, Ledger.onPaid("credit_card", Cents.make(10_000), Cents.make(438)), 10_000)
    ).toEqual({
      ...before,
      balanceCard: -50 + 10_000 - 438,
      amountInvoiceTotal: 30_000,
      amountInvoicesCompeticion: 15_000
    })
  })

  it("takes a refund or a chargeback from its balance, and leaves the paid totals", () => {
    expect(Company.totalsAfter(before, Ledger.onRefund("pix", Cents.make(300)), 0)).toEqual({
      ...before,
      balancePix: 700
    })
    expect(Company.totalsAfter(before, Ledger.onChargeback("credit_card", Cents.make(100)), 0)).toEqual({
      ...before,
      balanceCard: -150
    })
    expect(Company.totalsAfter(before, [], 0)).toEqual(before)
  })
})
