// Withdrawals (SPEC 13.3) over the in-memory ports and the stand-in rail: a request draws its amount and fee from the
// available balances in order, or is refused; the sweep hands it to the rail with nothing held and settles the answer,
// once; a lost answer is settled by asking, never by paying again; a failure, a return or a cancel gives back what it
// drew; each move records its event.
import { describe, expect, it } from "@effect/vitest"
import type { Cents, Withdrawal } from "@fatura/domain"
import { Effect, Fiber, Layer } from "effect"
import { TestClock } from "effect/testing"
import { Companies } from "../src/companies/Companies.js"
import type { Principal } from "../src/companies/Principal.js"
import { Invoices } from "../src/invoices/Invoices.js"
import { InvoiceLifecycle } from "../src/moves/InvoiceLifecycle.js"
import { PayoutUnavailable } from "../src/platform/Failures.js"
import { Postbacks } from "../src/postbacks/Postbacks.js"
import * as TestApplication from "../src/testing/TestApplication.js"
import * as TestPayoutRail from "../src/testing/TestPayoutRail.js"
import { PayoutRail } from "../src/withdrawals/PayoutRail.js"
import { railTimeout, WithdrawalSweep } from "../src/withdrawals/WithdrawalSweep.js"
import { Withdrawals } from "../src/withdrawals/Withdrawals.js"
import { pixRequest, provided, registerMerchant, startClock } from "./support/Merchant.js"

/** A company with a bank account (ending in `account`) and a pix sale of `amount`, paid: available at once. */
const aMerchantWith = (amount: number, account = "12345678") =>
  Effect.gen(function* () {
    const registered = yield* registerMerchant()
    yield* (yield* Companies).setBankAccount(registered.company.id, {
      bankCode: "341",
      agency: "0001",
      account,
      digit: "9",
      type: "corrente"
    })
    yield* sell(registered.principal, amount)
    return registered
  })

const sell = (principal: Principal, amount: number) =>
  Effect.gen(function* () {
    const { invoice } = yield* (yield* Invoices).create(principal, pixRequest({ totalPriceCents: amount }))
    yield* (yield* InvoiceLifecycle).pay(principal, invoice.secureId)
  })

const balances = (principal: Principal) =>
  Effect.map(
    Effect.flatMap(Companies, (companies) => companies.info(principal)),
    ({ totals }) => totals
  )

const withdrawalEvents = (principal: Principal) =>
  Effect.gen(function* () {
    const page = yield* (yield* Postbacks).events(principal, {
      limit: 100,
      startingAfter: null,
      type: null,
      invoice: null
    })
    return page.events
      .filter((event) => event.type.startsWith("withdrawal."))
      .map((event) => event.type)
      .reverse()
  })

const cents = (amount: number) => amount as Cents.Cents

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

describe("WithdrawalSweep", () => {
  it.effect("hands a pending withdrawal to the rail and records it paid once, with its events", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* aMerchantWith(10_000)
        const withdrawals = yield* Withdrawals
        const sweep = yield* WithdrawalSweep
        const { id } = yield* withdrawals.request(principal, { amount: cents(5_000), balance: null })
        yield* sweep.sweep
        expect(yield* withdrawals.find(principal, id)).toMatchObject({ status: "processing", rail: null })
        yield* TestClock.adjust("5 seconds")
        yield* sweep.sweep
        yield* TestClock.adjust("5 seconds")
        yield* sweep.sweep
        const paid = yield* withdrawals.find(principal, id)
        expect(paid).toMatchObject({ status: "paid", rail: "pix", failureReason: null })
        expect(paid.endToEndId).toMatch(/^E00000000\d{12}[0-9A-F]{11}$/)
        expect(yield* withdrawalEvents(principal)).toEqual([
          "withdrawal.created",
          "withdrawal.processing",
          "withdrawal.paid"
        ])
        // Paid: its money left when it was asked for, and nothing came back.
        expect((yield* balances(principal)).balancePix).toBe(10_000 - 199 - 5_367)
      })
    )
  )

  const settledTo = (account: string, after: "5 seconds") =>
    Effect.gen(function* () {
      const { principal } = yield* aMerchantWith(10_000, account)
      const withdrawals = yield* Withdrawals
      const sweep = yield* WithdrawalSweep
      const { id } = yield* withdrawals.request(principal, { amount: cents(5_000), balance: null })
      for (let n = 0; n < 4; n++) {
        yield* sweep.sweep
        yield* TestClock.adjust(after)
      }
      return {
        withdrawal: yield* withdrawals.find(principal, id),
        events: yield* withdrawalEvents(principal),
        pix: (yield* balances(principal)).balancePix
      }
    })

  it.effect("fails one to an account that does not exist, and gives back what it drew", () =>
    provided(
      Effect.gen(function* () {
        const { withdrawal, events, pix } = yield* settledTo("87650000", "5 seconds")
        expect(withdrawal).toMatchObject({ status: "failed", failureReason: "account_not_found", paidAt: null })
        expect(events).toEqual(["withdrawal.created", "withdrawal.processing", "withdrawal.failed"])
        expect(pix).toBe(10_000 - 199)
      })
    )
  )

  it.effect("fails a paid one its bank returns, and gives back what it drew", () =>
    provided(
      Effect.gen(function* () {
        const { withdrawal, events, pix } = yield* settledTo("87651111", "5 seconds")
        expect(withdrawal).toMatchObject({ status: "failed", failureReason: "returned_by_bank" })
        expect(withdrawal.paidAt).not.toBeNull()
        expect(events).toEqual(["withdrawal.created", "withdrawal.processing", "withdrawal.paid", "withdrawal.failed"])
        expect(pix).toBe(10_000 - 199)
      })
    )
  )

  it.effect("settles a withdrawal whose answer was lost by asking the rail, never by handing it over again", () => {
    const sends: TestPayoutRail.Sends = new Map()
    const losing = TestPayoutRail.make(sends)
    // Handed over, but the answer never comes back: a timeout, a crash on the way.
    const rail = Layer.succeed(
      PayoutRail,
      PayoutRail.of({
        ...losing,
        send: (payout) =>
          Effect.andThen(losing.send(payout), Effect.fail(new PayoutUnavailable({ reason: "timed out" })))
      })
    )
    return Effect.provide(
      startClock.pipe(
        Effect.andThen(
          Effect.gen(function* () {
            const { principal } = yield* aMerchantWith(10_000)
            const withdrawals = yield* Withdrawals
            const sweep = yield* WithdrawalSweep
            const { id } = yield* withdrawals.request(principal, { amount: cents(5_000), balance: null })
            yield* sweep.sweep
            expect((yield* withdrawals.find(principal, id)).status).toBe("processing")
            for (let n = 0; n < 3; n++) {
              yield* TestClock.adjust("5 seconds")
              yield* sweep.sweep
            }
            expect((yield* withdrawals.find(principal, id)).status).toBe("paid")
            expect(sends.get(id)).toBe(1)
          })
        )
      ),
      TestApplication.withProviders(Layer.mergeAll(TestApplication.providers, rail))
    )
  })

  it.effect("gives up on a rail that does not answer in time, goes on with the next, and asks about both after", () => {
    const sends: TestPayoutRail.Sends = new Map()
    const answering = TestPayoutRail.make(sends)
    // Takes each payout and never answers the hand-over: a rail gone quiet mid-call, though it answers when asked.
    const rail = Layer.succeed(
      PayoutRail,
      PayoutRail.of({ ...answering, send: (payout) => Effect.andThen(answering.send(payout), Effect.never) })
    )
    return Effect.provide(
      startClock.pipe(
        Effect.andThen(
          Effect.gen(function* () {
            const { principal } = yield* aMerchantWith(20_000)
            const withdrawals = yield* Withdrawals
            const sweep = yield* WithdrawalSweep
            const first = yield* withdrawals.request(principal, { amount: cents(5_000), balance: null })
            const second = yield* withdrawals.request(principal, { amount: cents(5_000), balance: null })
            const swept = yield* Effect.forkChild(sweep.sweep)
            // One time limit for each hand-over: the sweep ends, having waited on neither for longer.
            yield* TestClock.adjust(railTimeout)
            yield* TestClock.adjust(railTimeout)
            yield* Fiber.join(swept)
            // Each handed over once; both, due a look by then, asked about and found paid.
            expect([sends.get(first.id), sends.get(second.id)]).toEqual([1, 1])
            expect((yield* withdrawals.find(principal, first.id)).status).toBe("paid")
            expect((yield* withdrawals.find(principal, second.id)).status).toBe("paid")
          })
        )
      ),
      TestApplication.withProviders(Layer.mergeAll(TestApplication.providers, rail))
    )
  })
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
