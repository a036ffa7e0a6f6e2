import { describe, expect, it } from "@effect/vitest"
import { Cents, Company, Ledger } from "../src/index.js"

describe("Company.totalsAfter", () => {
  const before: Company.CompanyTotals = {
    balancePix: 1_000,
    balanceCard: -50,
    balanceBankSlip: 0,
    waitingPix: 0,
    waitingCard: 7_000,
    waitingBankSlip: 400,
    amountInvoiceTotal: 20_000,
    amountInvoicesCompeticion: 5_000
  }

  it("adds a payment's entries to the bucket of its receivables and its amount to the paid totals", () => {
    expect(
      Company.totalsAfter(before, Ledger.onPaid("credit_card", Cents.make(10_000), Cents.make(438), "waiting"), 10_000)
    ).toEqual({
      ...before,
      waitingCard: 7_000 + 10_000 - 438,
      amountInvoiceTotal: 30_000,
      amountInvoicesCompeticion: 15_000
    })
    expect(
      Company.totalsAfter(before, Ledger.onPaid("pix", Cents.make(10_000), Cents.make(199), "available"), 10_000)
    ).toEqual({
      ...before,
      balancePix: 1_000 + 10_000 - 199,
      amountInvoiceTotal: 30_000,
      amountInvoicesCompeticion: 15_000
    })
  })

  it("takes a refund or a chargeback from each bucket it takes from, and leaves the paid totals", () => {
    expect(Company.totalsAfter(before, Ledger.onTakeBack("refund", "pix", Cents.make(0), Cents.make(300)), 0)).toEqual({
      ...before,
      balancePix: 700
    })
    expect(
      Company.totalsAfter(before, Ledger.onTakeBack("refund", "bank_slip", Cents.make(400), Cents.make(100)), 0)
    ).toEqual({ ...before, waitingBankSlip: 0, balanceBankSlip: -100 })
    expect(
      Company.totalsAfter(before, Ledger.onTakeBack("chargeback", "credit_card", Cents.make(7_000), Cents.make(100)), 0)
    ).toEqual({ ...before, waitingCard: 0, balanceCard: -150 })
    expect(Company.totalsAfter(before, [], 0)).toEqual(before)
  })

  it("gives a refused refund back to the buckets it was taken from", () => {
    expect(Company.totalsAfter(before, Ledger.onRefundRefused("pix", Cents.make(0), Cents.make(300)), 0)).toEqual({
      ...before,
      balancePix: 1_300
    })
    expect(Company.totalsAfter(before, Ledger.onRefundRefused("pix", Cents.make(200), Cents.make(100)), 0)).toEqual({
      ...before,
      balancePix: 1_100,
      waitingPix: before.waitingPix + 200
    })
  })

  it("moves a receivable falling due from waiting to available, and a negative one the other way", () => {
    expect(Company.totalsAfter(before, Ledger.onSettlement("card", 3_000), 0)).toEqual({
      ...before,
      waitingCard: 4_000,
      balanceCard: 2_950
    })
    expect(Company.totalsAfter(before, Ledger.onSettlement("bank_slip", -150), 0)).toEqual({
      ...before,
      waitingBankSlip: 550,
      balanceBankSlip: -150
    })
  })
})

describe("Company.availableOf", () => {
  it("reads the available balance of each kind, never what waits", () => {
    const totals: Company.CompanyTotals = {
      ...Company.zeroTotals,
      balancePix: 1,
      balanceCard: 2,
      balanceBankSlip: 3,
      waitingPix: 10,
      waitingCard: 20,
      waitingBankSlip: 30
    }
    expect(Company.availableOf(totals, "pix")).toBe(1)
    expect(Company.availableOf(totals, "card")).toBe(2)
    expect(Company.availableOf(totals, "bank_slip")).toBe(3)
  })
})
