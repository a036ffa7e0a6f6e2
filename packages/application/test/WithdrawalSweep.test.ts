// The sweep that pays withdrawals (SPEC 13.3), over the in-memory ports and the stand-in rail: it hands a withdrawal to
// the rail with nothing held and settles the answer, once; a lost answer is settled by asking, never by paying again;
// a failure or a return gives back what it drew; each move records its event.
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer } from "effect"
import { TestClock } from "effect/testing"
import { PayoutUnavailable } from "../src/platform/Failures.js"
import * as TestApplication from "../src/testing/TestApplication.js"
import * as TestPayoutRail from "../src/testing/TestPayoutRail.js"
import { PayoutRail } from "../src/withdrawals/PayoutRail.js"
import { railTimeout, WithdrawalSweep } from "../src/withdrawals/WithdrawalSweep.js"
import { Withdrawals } from "../src/withdrawals/Withdrawals.js"
import { provided, startClock } from "./support/Merchant.js"
import { aMerchantWith, balances, cents, withdrawalEvents } from "./support/Withdrawing.js"

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
