// Automatic withdrawals (SPEC 13.4): on each business day of its schedule a company's whole available balance, less the
// fee, is withdrawn when that is at least R$ 10,00; once a day, whatever the sweep then does.
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { Companies } from "../src/companies/Companies.js"
import type { Principal } from "../src/companies/Principal.js"
import { Invoices } from "../src/invoices/Invoices.js"
import { InvoiceLifecycle } from "../src/moves/InvoiceLifecycle.js"
import { AutoWithdrawals } from "../src/withdrawals/AutoWithdrawals.js"
import { Withdrawals } from "../src/withdrawals/Withdrawals.js"
import { pixRequest, provided, registerMerchant } from "./support/Merchant.js"

const sell = (principal: Principal, amount: number) =>
  Effect.gen(function* () {
    const { invoice } = yield* (yield* Invoices).create(principal, pixRequest({ totalPriceCents: amount }))
    yield* (yield* InvoiceLifecycle).pay(principal, invoice.secureId)
  })

const made = (principal: Principal) =>
  Effect.map(
    Effect.flatMap(Withdrawals, (withdrawals) =>
      withdrawals.list(principal, { limit: 100, startingAfter: null, status: null })
    ),
    (page) => page.withdrawals.map((withdrawal) => withdrawal.amount)
  )

/** A company with a bank account and `schedule`, and a pix sale of R$ 100,00 (9 801 available). */
const aCompany = (schedule: string) =>
  Effect.gen(function* () {
    const registered = yield* registerMerchant()
    const companies = yield* Companies
    yield* companies.setBankAccount(registered.company.id, {
      bankCode: "341",
      agency: "0001",
      account: "12345678",
      digit: "9",
      type: "corrente"
    })
    expect(yield* companies.setAutoWithdrawal(registered.company.id, schedule)).toBe(schedule)
    yield* sell(registered.principal, 10_000)
    return registered
  })

describe("AutoWithdrawals.sweep", () => {
  it.effect("withdraws all that is available but the fee, once a day, on its schedule's business days", () =>
    provided(
      Effect.gen(function* () {
        const daily = yield* aCompany("daily")
        const weekly = yield* aCompany("weekly:3")
        const auto = yield* AutoWithdrawals
        // Tuesday 10 March 2026: daily withdraws, weekly (Wednesdays) does not.
        expect(yield* auto.sweep).toBe(1)
        expect(yield* made(daily.principal)).toEqual([9_801 - 367])
        expect(yield* made(weekly.principal)).toEqual([])
        expect((yield* (yield* Companies).info(daily.principal)).totals.balancePix).toBe(0)
        // Run again the same day: nothing more, though money came in meanwhile.
        yield* sell(daily.principal, 10_000)
        expect(yield* auto.sweep).toBe(0)
        // Wednesday: both.
        yield* TestClock.adjust("1 day")
        expect(yield* auto.sweep).toBe(2)
        expect(yield* made(daily.principal)).toEqual([9_801 - 367, 9_801 - 367])
        expect(yield* made(weekly.principal)).toEqual([9_801 - 367])
      })
    )
  )

  it.effect("takes out nothing below R$ 10,00, and nothing once set off", () =>
    provided(
      Effect.gen(function* () {
        const small = yield* registerMerchant()
        const companies = yield* Companies
        yield* companies.setBankAccount(small.company.id, {
          bankCode: "341",
          agency: "0001",
          account: "12345678",
          digit: "9",
          type: "corrente"
        })
        yield* companies.setAutoWithdrawal(small.company.id, "daily")
        // 1 300 less 1.99 %: 1 274 available, 907 once the fee is out.
        yield* sell(small.principal, 1_300)
        const stopped = yield* aCompany("daily")
        yield* companies.setAutoWithdrawal(stopped.company.id, "off")
        expect(yield* (yield* AutoWithdrawals).sweep).toBe(0)
        expect(yield* made(small.principal)).toEqual([])
        expect(yield* made(stopped.principal)).toEqual([])
        expect(yield* Effect.flip(companies.setAutoWithdrawal(small.company.id, "weekly:6"))).toMatchObject({
          _tag: "InvalidSchedule"
        })
        expect((yield* companies.info(small.principal)).company.autoWithdrawal).toBe("daily")
      })
    )
  )
})
