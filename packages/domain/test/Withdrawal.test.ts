// Withdrawals (SPEC 13.3): how one is drawn from the available balances with its fee, the one diagram of its
// statuses, what each move writes to the ledger, and how the sandbox's rail answers.
import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import * as fc from "fast-check"
import { propertyRuns } from "../../../scripts/property-tests/settings.mjs"
import { Cents, Ledger, type PaymentMethod, Timestamp, Withdrawal } from "../src/index.js"

const cents = (n: number) => Cents.make(n)
const balances = (pix: number, bank_slip: number, card: number) => ({ pix, bank_slip, card })
const statuses = Withdrawal.WithdrawalStatus.literals
const actions = Withdrawal.WithdrawalAction.literals

/** What the entries take out of (or give back to) one balance's available bucket. */
const takenFrom = (entries: ReadonlyArray<Ledger.Entry>, balance: PaymentMethod.BalanceKind) =>
  entries
    .filter((entry) => entry.balance === balance && entry.bucket === "available")
    .reduce((sum, entry) => sum - Ledger.signed(entry), 0)

describe("Withdrawal", () => {
  it("draws from pix, then bank_slip, then card, as much from each as needed, the fee with the amount", () => {
    expect(Withdrawal.draw(balances(5_000, 3_000, 9_000), cents(7_000), cents(367), null)).toEqual(
      Result.succeed([
        { balance: "pix", amount: 5_000 },
        { balance: "bank_slip", amount: 2_367 }
      ])
    )
    // Enough in the first balance: nothing from the others.
    expect(Withdrawal.draw(balances(20_000, 3_000, 9_000), cents(10_000), cents(367), null)).toEqual(
      Result.succeed([{ balance: "pix", amount: 10_367 }])
    )
    // An empty or negative balance (a chargeback's) is passed over.
    expect(Withdrawal.draw(balances(-500, 0, 9_000), cents(1_000), cents(367), null)).toEqual(
      Result.succeed([{ balance: "card", amount: 1_367 }])
    )
  })

  it("draws from the one balance named, and from no other", () => {
    expect(Withdrawal.draw(balances(50_000, 0, 9_000), cents(5_000), cents(367), "card")).toEqual(
      Result.succeed([{ balance: "card", amount: 5_367 }])
    )
    expect(Withdrawal.draw(balances(50_000, 0, 5_000), cents(5_000), cents(367), "card")).toEqual(
      Result.fail(new Withdrawal.InsufficientFunds({ available: 5_000, required: 5_367 }))
    )
  })

  it("is refused when the amount and its fee are not available, even by a cent", () => {
    expect(Withdrawal.draw(balances(5_000, 3_000, 2_366), cents(10_000), cents(367), null)).toEqual(
      Result.fail(new Withdrawal.InsufficientFunds({ available: 10_366, required: 10_367 }))
    )
    expect(Withdrawal.draw(balances(5_000, 3_000, 2_367), cents(10_000), cents(367), null)).toEqual(
      Result.succeed([
        { balance: "pix", amount: 5_000 },
        { balance: "bank_slip", amount: 3_000 },
        { balance: "card", amount: 2_367 }
      ])
    )
    // A negative balance does not eat into what the others hold.
    expect(Withdrawal.draw(balances(-2_000, 0, 0), cents(100), cents(367), null)).toEqual(
      Result.fail(new Withdrawal.InsufficientFunds({ available: 0, required: 467 }))
    )
  })

  it("debits the fee first and then the amount, each from the balance it came out of", () => {
    const sources = Result.getOrThrow(Withdrawal.draw(balances(200, 3_000, 0), cents(1_000), cents(367), null))
    expect(Withdrawal.onRequested(sources, cents(367))).toEqual([
      { type: "withdrawal_fee", direction: "debit", amount: 200, balance: "pix", bucket: "available" },
      { type: "withdrawal_fee", direction: "debit", amount: 167, balance: "bank_slip", bucket: "available" },
      { type: "withdrawal", direction: "debit", amount: 1_000, balance: "bank_slip", bucket: "available" }
    ])
  })

  it("moves only as its diagram draws, and says so otherwise", () => {
    const allowed = new Map<string, string>([
      ["pending send", "processing"],
      ["pending cancel", "canceled"],
      ["processing pay", "paid"],
      ["processing fail", "failed"],
      // The receiving bank returns a paid withdrawal.
      ["paid fail", "failed"]
    ])
    for (const from of statuses) {
      for (const action of actions) {
        const moved = Withdrawal.transition(from, action)
        const to = allowed.get(`${from} ${action}`)
        if (to === undefined) {
          expect(moved, `${from} ${action}`).toEqual(
            Result.fail(new Withdrawal.InvalidWithdrawalTransition({ from, action }))
          )
        } else {
          expect(moved, `${from} ${action}`).toEqual(Result.succeed(to))
        }
      }
    }
    expect(new Withdrawal.InvalidWithdrawalTransition({ from: "processing", action: "cancel" }).message).toBe(
      "cannot cancel a withdrawal that is processing"
    )
  })

  it("records the event of each status", () => {
    expect(statuses.map(Withdrawal.eventType)).toEqual([...Withdrawal.eventTypes])
  })

  it("gives back what it drew when it fails or is canceled, and writes nothing when sent or paid", () => {
    const sources = [
      { balance: "pix", amount: cents(500) },
      { balance: "card", amount: cents(9_867) }
    ] as const
    const reversal = [
      { type: "withdrawal_reversal", direction: "credit", amount: 500, balance: "pix", bucket: "available" },
      { type: "withdrawal_reversal", direction: "credit", amount: 9_867, balance: "card", bucket: "available" }
    ]
    expect(Withdrawal.move({ status: "pending", sources }, "cancel")).toEqual(
      Result.succeed({ status: "canceled", movements: reversal })
    )
    expect(Withdrawal.move({ status: "processing", sources }, "fail")).toEqual(
      Result.succeed({ status: "failed", movements: reversal })
    )
    expect(Withdrawal.move({ status: "paid", sources }, "fail")).toEqual(
      Result.succeed({ status: "failed", movements: reversal })
    )
    expect(Withdrawal.move({ status: "pending", sources }, "send")).toEqual(
      Result.succeed({ status: "processing", movements: [] })
    )
    expect(Withdrawal.move({ status: "processing", sources }, "pay")).toEqual(
      Result.succeed({ status: "paid", movements: [] })
    )
    expect(Result.isFailure(Withdrawal.move({ status: "canceled", sources }, "fail"))).toBe(true)
  })

  it("draws exactly the amount and fee, never more than a balance holds, and a reversal gives all of it back", () => {
    const balance = fc.integer({ min: -50_000, max: 500_000 })
    fc.assert(
      fc.property(
        fc.record({ pix: balance, bank_slip: balance, card: balance }),
        fc.integer({ min: Withdrawal.minimumAmount, max: 600_000 }),
        fc.integer({ min: 0, max: 5_000 }),
        fc.constantFrom(null, "pix" as const, "bank_slip" as const, "card" as const),
        (available, amount, fee, named) => {
          const drawn = Withdrawal.draw(available, cents(amount), cents(fee), named)
          const from = named === null ? Withdrawal.drawOrder : [named]
          const held = from.reduce((sum, kind) => sum + Math.max(0, available[kind]), 0)
          expect(Result.isSuccess(drawn)).toBe(held >= amount + fee)
          if (Result.isFailure(drawn)) return
          const sources = drawn.success
          const requested = Withdrawal.onRequested(sources, cents(fee))
          for (const kind of Withdrawal.drawOrder) {
            const taken = takenFrom(requested, kind)
            expect(taken).toBeLessThanOrEqual(Math.max(0, available[kind]))
            if (!from.includes(kind)) expect(taken).toBe(0)
          }
          const byType = (type: Ledger.EntryType) =>
            requested.filter((entry) => entry.type === type).reduce((sum, entry) => sum + entry.amount, 0)
          expect([byType("withdrawal"), byType("withdrawal_fee")]).toEqual([amount, fee])
          expect(requested.every((entry) => entry.amount > 0 && entry.direction === "debit")).toBe(true)
          const reversed = [...requested, ...Withdrawal.onReversed(sources)]
          for (const kind of Withdrawal.drawOrder) expect(takenFrom(reversed, kind)).toBe(0)
        }
      ),
      { numRuns: propertyRuns(1_000) }
    )
  })

  it("in the sandbox, pays after a few seconds, fails accounts ending in 0000 and returns those ending in 1111", () => {
    const at = (account: string, seconds: number) => Withdrawal.sandboxAnswer(account, seconds)
    expect([at("12345678", 0), at("12345678", 2.9), at("12345678", 3), at("12345678", 3_600)]).toEqual([
      "processing",
      "processing",
      "paid",
      "paid"
    ])
    expect([at("12340000", 2), at("12340000", 3)]).toEqual(["processing", "account_not_found"])
    expect([at("12341111", 3), at("12341111", 7.9), at("12341111", 8)]).toEqual(["paid", "paid", "returned_by_bank"])
  })

  it("gives a sandbox payout the same end-to-end id each time it is asked", () => {
    const paidAt = Timestamp.fromDateTime("2026-11-29T10:45:07.123456-03:00")
    const id = "wd_8c5e3f6a-2b1d-4c8e-9f7a-1d2e3f4a5b6c"
    expect(Withdrawal.sandboxEndToEndId(id, paidAt)).toBe("E00000000202611291345" + "8C5E3F6A2B1")
    expect(Withdrawal.sandboxEndToEndId(id, paidAt)).toHaveLength(32)
  })
})
