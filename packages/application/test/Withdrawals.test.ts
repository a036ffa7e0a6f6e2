// Withdrawals (SPEC 13.3) over the in-memory ports and the stand-in rail: a request draws its amount and fee from the
// available balances in order, or is refused; a pending one is canceled once, giving back what it drew; the list.
import { describe, expect, it } from "@effect/vitest"
import type { Withdrawal } from "@fatura/domain"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { Companies } from "../src/companies/Companies.js"
import { WithdrawalSweep } from "../src/withdrawals/WithdrawalSweep.js"
import { Withdrawals } from "../src/withdrawals/Withdrawals.js"
import { provided, registerMerchant } from "./support/Merchant.js"
import { aMerchantWith, balances, cents, sell, withdrawalEvents } from "./support/Withdrawing.js"

describe("Withdrawals.request", () => {
  it.effect("draws the amount and its fee from pix first, records it pending with its event", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* aMerchantWith(10_000)
        const withdrawals = yield* Withdrawals
        const withdrawal = yield* withdrawals.request(principal, { amount: cents(5_000), balance: null })
        expect(withdrawal).toMatchObject({
          amount: 5_000,
          fee: 367,
          status: "pending",
          sources: [{ balance: "pix", amount: 5_367 }],
          destination: { bank: { code: "341", account: "12345678", digit: "9" }, holderName: "Loja Exemplo Ltda" },
          rail: null
        })
        expect((yield* balances(principal)).balancePix).toBe(10_000 - 199 - 5_367)
        expect(yield* withdrawals.find(principal, withdrawal.id)).toEqual(withdrawal)
        expect(yield* withdrawalEvents(principal)).toEqual(["withdrawal.created"])
      })
    )
  )

  it.effect("refuses what the available balances do not cover, with its fee; a named balance alone", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* aMerchantWith(10_000)
        const withdrawals = yield* Withdrawals
        // 9 801 available: 9 434 and its fee of 367 fit exactly; a cent more does not.
        expect(
          yield* Effect.flip(withdrawals.request(principal, { amount: cents(9_435), balance: null }))
        ).toMatchObject({ _tag: "InsufficientFunds", available: 9_801, required: 9_802 })
        expect(
          yield* Effect.flip(withdrawals.request(principal, { amount: cents(100), balance: "card" }))
        ).toMatchObject({ _tag: "InsufficientFunds", available: 0 })
        const all = yield* withdrawals.request(principal, { amount: cents(9_434), balance: "pix" })
        expect(all.sources).toEqual([{ balance: "pix", amount: 9_801 }])
        expect((yield* balances(principal)).balancePix).toBe(0)
      })
    )
  )

  it.effect("refuses a company without a bank account, and one whose withdrawals are blocked", () =>
    provided(
      Effect.gen(function* () {
        const withdrawals = yield* Withdrawals
        const bare = yield* registerMerchant()
        yield* sell(bare.principal, 10_000)
        expect(
          yield* Effect.flip(withdrawals.request(bare.principal, { amount: cents(1_000), balance: null }))
        ).toMatchObject({ _tag: "BankAccountMissing" })
        const { principal, company } = yield* aMerchantWith(10_000)
        yield* (yield* Companies).setBlock(company.id, "sake", true)
        expect(
          yield* Effect.flip(withdrawals.request(principal, { amount: cents(1_000), balance: null }))
        ).toMatchObject({ _tag: "CompanyBlocked", block: "sake" })
        expect((yield* balances(principal)).balancePix).toBe(10_000 - 199)
      })
    )
  )
})

describe("Withdrawals.cancel", () => {
  it.effect("cancels a pending one, giving back what it drew; nothing else, and only the company's own", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* aMerchantWith(10_000)
        const withdrawals = yield* Withdrawals
        const { id } = yield* withdrawals.request(principal, { amount: cents(5_000), balance: null })
        const other = yield* registerMerchant()
        expect(yield* Effect.flip(withdrawals.cancel(other.principal, id))).toMatchObject({
          _tag: "WithdrawalNotFound"
        })
        const canceled: Withdrawal.Withdrawal = yield* withdrawals.cancel(principal, id)
        expect(canceled.status).toBe("canceled")
        expect((yield* balances(principal)).balancePix).toBe(10_000 - 199)
        expect(yield* Effect.flip(withdrawals.cancel(principal, id))).toMatchObject({ _tag: "MoveNotAllowed" })
        // A sent one cannot be canceled.
        const sent = yield* withdrawals.request(principal, { amount: cents(1_000), balance: null })
        yield* (yield* WithdrawalSweep).sweep
        expect(yield* Effect.flip(withdrawals.cancel(principal, sent.id))).toMatchObject({
          _tag: "MoveNotAllowed",
          reason: "cannot cancel a withdrawal that is processing"
        })
        expect(yield* withdrawalEvents(principal)).toEqual([
          "withdrawal.created",
          "withdrawal.canceled",
          "withdrawal.created",
          "withdrawal.processing"
        ])
      })
    )
  )

  it.effect("lists the company's withdrawals newest first, by status, paged", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* aMerchantWith(50_000)
        const withdrawals = yield* Withdrawals
        const made = []
        for (let n = 0; n < 3; n++) {
          made.push(yield* withdrawals.request(principal, { amount: cents(1_000 + n), balance: null }))
          yield* TestClock.adjust("1 second")
        }
        yield* withdrawals.cancel(principal, made[1]!.id)
        const all = yield* withdrawals.list(principal, { limit: 10, startingAfter: null, status: null })
        expect(all.withdrawals.map((w) => w.id)).toEqual([made[2]!.id, made[1]!.id, made[0]!.id])
        const page = yield* withdrawals.list(principal, { limit: 1, startingAfter: made[2]!.id, status: null })
        expect([page.withdrawals.map((w) => w.id), page.hasMore]).toEqual([[made[1]!.id], true])
        const canceled = yield* withdrawals.list(principal, { limit: 10, startingAfter: null, status: "canceled" })
        expect(canceled.withdrawals.map((w) => w.id)).toEqual([made[1]!.id])
        const stranger = yield* registerMerchant()
        expect(
          yield* Effect.flip(
            withdrawals.list(stranger.principal, { limit: 10, startingAfter: made[0]!.id, status: null })
          )
        ).toMatchObject({ _tag: "UnknownCursor" })
      })
    )
  )
})
