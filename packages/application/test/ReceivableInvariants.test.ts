// SPEC 7.4 and 13's invariants over any sequence of sales, refunds, chargebacks, days passing (with the sweeps),
// sandbox releases, withdrawals, their cancels, payouts and failures (the bank account may change to one the sandbox
// fails or returns): each bucket is the sum of its entries, what waits is what the waiting receivables will pay, an
// invoice's receivables sum to its net less what was taken back, and only a chargeback takes a balance below zero.
import { describe, expect, it } from "@effect/vitest"
import { type Cents, Ledger, PaymentMethod } from "@fatura/domain"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import { propertyRuns } from "../../../scripts/property-tests/settings.mjs"
import { BalanceStatement, type OperationPage } from "../src/balances/BalanceStatement.js"
import type { BalanceOperation } from "../src/balances/LedgerEntryRepository.js"
import { Companies } from "../src/companies/Companies.js"
import type { Principal } from "../src/companies/Principal.js"
import { Invoices } from "../src/invoices/Invoices.js"
import { InvoiceLifecycle } from "../src/moves/InvoiceLifecycle.js"
import { type ReceivableQuery, Receivables } from "../src/receivables/Receivables.js"
import * as TestApplication from "../src/testing/TestApplication.js"
import { WithdrawalSweep } from "../src/withdrawals/WithdrawalSweep.js"
import { Withdrawals } from "../src/withdrawals/Withdrawals.js"
import { boletoRequest, cardRequest, listAll, pixRequest, registerMerchant, startClock } from "./support/Merchant.js"

const everything: ReceivableQuery = {
  limit: 100,
  startingAfter: null,
  status: null,
  invoice: null,
  paymentDateGte: null,
  paymentDateLte: null
}

type Step =
  | {
      readonly _tag: "Sale"
      readonly method: "pix" | "bank_slip" | "credit_card"
      readonly amount: number
      readonly installments: number
    }
  | { readonly _tag: "Refund"; readonly sale: number; readonly share: number }
  | { readonly _tag: "Chargeback"; readonly sale: number }
  | { readonly _tag: "Days"; readonly days: number }
  | { readonly _tag: "Release"; readonly sale: number }
  | { readonly _tag: "Withdraw"; readonly percent: number; readonly balance: PaymentMethod.BalanceKind | null }
  | { readonly _tag: "Cancel"; readonly withdrawal: number }
  | { readonly _tag: "Seconds"; readonly seconds: number }
  | { readonly _tag: "Account"; readonly ending: "5678" | "0000" | "1111" }

// Sales, withdrawals and their cancels weigh more: a cancel must find a withdrawal still pending often enough.
const aStep: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      _tag: fc.constant("Sale" as const),
      method: fc.constantFrom("pix" as const, "bank_slip" as const, "credit_card" as const),
      amount: fc.integer({ min: 100, max: 200_000 }),
      installments: fc.integer({ min: 1, max: 12 })
    })
  },
  fc.record({
    _tag: fc.constant("Refund" as const),
    sale: fc.nat(),
    share: fc.double({ min: 0.01, max: 1, noNaN: true })
  }),
  fc.record({ _tag: fc.constant("Chargeback" as const), sale: fc.nat() }),
  fc.record({ _tag: fc.constant("Days" as const), days: fc.integer({ min: 1, max: 45 }) }),
  fc.record({ _tag: fc.constant("Release" as const), sale: fc.nat() }),
  {
    weight: 3,
    arbitrary: fc.record({
      _tag: fc.constant("Withdraw" as const),
      // Percent of what is available: past 100, more than there is.
      percent: fc.integer({ min: 1, max: 110 }),
      balance: fc.constantFrom(null, "pix" as const, "card" as const, "bank_slip" as const)
    })
  },
  { weight: 2, arbitrary: fc.record({ _tag: fc.constant("Cancel" as const), withdrawal: fc.nat() }) },
  fc.record({ _tag: fc.constant("Seconds" as const), seconds: fc.integer({ min: 1, max: 10 }) }),
  fc.record({
    _tag: fc.constant("Account" as const),
    ending: fc.constantFrom("5678" as const, "0000" as const, "1111" as const)
  })
)

/** Every ledger entry of the company, newest first, page after page. */
const statementOf = (principal: Principal) =>
  Effect.gen(function* () {
    const statement = yield* BalanceStatement
    const entries: Array<BalanceOperation> = []
    let after: number | null = null
    while (true) {
      const page: OperationPage = yield* statement.operations(principal, {
        limit: 100,
        startingAfter: after,
        createdGte: null,
        createdLte: null,
        balance: null,
        type: null
      })
      entries.push(...page.operations)
      if (!page.hasMore) return entries
      after = page.operations.at(-1)!.id
    }
  })

const accountEnding = (principal: Principal, ending: string) =>
  Effect.flatMap(Companies, (companies) =>
    companies.setBankAccount(principal.companyId, {
      bankCode: "341",
      agency: "0001",
      account: `1234${ending}`,
      digit: "9",
      type: "corrente"
    })
  )

const kinds = [
  ["pix", "balancePix", "waitingPix"],
  ["card", "balanceCard", "waitingCard"],
  ["bank_slip", "balanceBankSlip", "waitingBankSlip"]
] as const

/** Runs `steps` for one new company and checks SPEC 7.4 and 13.1's invariants after each. */
const runSteps = (steps: ReadonlyArray<Step>) =>
  Effect.gen(function* () {
    const { principal } = yield* registerMerchant()
    const invoices = yield* Invoices
    const lifecycle = yield* InvoiceLifecycle
    const receivables = yield* Receivables
    const withdrawals = yield* Withdrawals
    const payouts = yield* WithdrawalSweep
    yield* accountEnding(principal, "5678")
    const made: Array<string> = []
    const sales: Array<string> = []
    let chargedBack = false
    const saleOf = (n: number) => sales[n % sales.length]!
    for (const step of steps) {
      switch (step._tag) {
        case "Sale": {
          const request =
            step.method === "credit_card"
              ? cardRequest(
                  // Each installment is at least R$ 5,00 (SPEC 6.3).
                  { installment: Math.max(1, Math.min(step.installments, Math.floor(step.amount / 500))) },
                  { totalPriceCents: step.amount }
                )
              : step.method === "pix"
                ? pixRequest({ totalPriceCents: step.amount })
                : boletoRequest({ totalPriceCents: step.amount })
          const { invoice } = yield* invoices.create(principal, request)
          if (step.method !== "credit_card") yield* lifecycle.pay(principal, invoice.secureId)
          sales.push(invoice.secureId)
          break
        }
        case "Refund": {
          if (sales.length === 0) break
          const { invoice } = yield* invoices.find(principal, saleOf(step.sale))
          const left = invoice.amount - invoice.refundedAmount
          // Refused when nothing is left, or when the balances cannot cover it: refusals change nothing.
          yield* Effect.ignore(
            lifecycle.refund(principal, invoice.secureId, Math.max(1, Math.floor(left * step.share)), null)
          )
          break
        }
        case "Chargeback": {
          if (sales.length === 0) break
          const charged = yield* Effect.result(lifecycle.chargeback(principal, saleOf(step.sale)))
          if (charged._tag === "Success") chargedBack = true
          break
        }
        case "Days": {
          yield* TestClock.adjust(`${step.days} days`)
          yield* receivables.sweep
          yield* payouts.sweep
          break
        }
        case "Withdraw": {
          const { totals } = yield* (yield* Companies).info(principal)
          const available =
            Math.max(0, totals.balancePix) + Math.max(0, totals.balanceCard) + Math.max(0, totals.balanceBankSlip)
          const amount = Math.floor((available * step.percent) / 100) - 367
          if (amount < 100) break
          // Refused when the balance named, or all of them, cannot cover it with its fee: refusals change nothing.
          const requested = yield* Effect.result(
            withdrawals.request(principal, { amount: amount as Cents.Cents, balance: step.balance })
          )
          if (requested._tag === "Success") made.push(requested.success.id)
          break
        }
        case "Cancel": {
          if (made.length > 0) yield* Effect.ignore(withdrawals.cancel(principal, made[step.withdrawal % made.length]!))
          break
        }
        case "Seconds": {
          yield* TestClock.adjust(`${step.seconds} seconds`)
          yield* payouts.sweep
          break
        }
        case "Account": {
          yield* accountEnding(principal, step.ending)
          break
        }
        case "Release": {
          if (sales.length > 0) yield* receivables.release(principal, saleOf(step.sale))
          break
        }
      }
      const { totals } = yield* (yield* Companies).info(principal)
      const schedule = (yield* receivables.list(principal, { ...everything, limit: 100 })).receivables
      const listed = (yield* invoices.list(principal, listAll)).invoices
      const statement = yield* statementOf(principal)
      for (const [kind, available, waiting] of kinds) {
        const entries = statement.filter((entry) => entry.balance === kind)
        // available + waiting per method is the sum of its entries, each bucket the sum of its own.
        expect(totals[available]).toBe(Ledger.balanceOf(entries, kind, "available"))
        expect(totals[waiting]).toBe(Ledger.balanceOf(entries, kind, "waiting"))
        // What waits is what the method's waiting receivables will pay.
        const methodInvoices = new Set(
          listed.filter((invoice) => PaymentMethod.balanceKindOf(invoice.method) === kind).map((i) => i.secureId)
        )
        expect(totals[waiting]).toBe(
          schedule
            .filter((receivable) => methodInvoices.has(receivable.invoiceId) && receivable.status === "waiting_funds")
            .reduce((sum, receivable) => sum + receivable.netAmount, 0)
        )
        expect(totals[waiting]).toBeGreaterThanOrEqual(0)
        // Only a chargeback takes an available balance below zero.
        if (!chargedBack) expect(totals[available]).toBeGreaterThanOrEqual(0)
      }
      for (const invoice of listed) {
        if (invoice.paidAt === null) continue
        const net = schedule
          .filter((receivable) => receivable.invoiceId === invoice.secureId)
          .reduce((sum, receivable) => sum + receivable.netAmount, 0)
        // An invoice's receivables sum to its net less what was refunded or charged back.
        const takenBack = invoice.status === "chargedback" ? invoice.amount : invoice.refundedAmount
        expect(net).toBe(invoice.fee.netAmount - takenBack)
      }
      // A withdrawal draws its amount and fee until it fails or is canceled, which gives all of it back (SPEC 13.3).
      for (const id of made) {
        const withdrawal = yield* withdrawals.find(principal, id)
        const drawn = statement
          .filter((entry) => entry.withdrawalId === id)
          .reduce((sum, entry) => sum + Ledger.signed(entry), 0)
        const given = withdrawal.status === "failed" || withdrawal.status === "canceled"
        expect(drawn, `${id} ${withdrawal.status}`).toBe(given ? 0 : -(withdrawal.amount + withdrawal.fee))
        expect(withdrawal.sources.reduce((sum, source) => sum + source.amount, 0)).toBe(
          withdrawal.amount + withdrawal.fee
        )
      }
    }
  })

describe("Receivables and withdrawals, as any sequence of moves leaves them", () => {
  it.effect("keep the balances, the buckets, each invoice's receivables and each withdrawal adding up (7.4, 13)", () =>
    Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(fc.array(aStep, { minLength: 1, maxLength: 14 }), (steps) =>
          Effect.runPromise(
            startClock.pipe(
              Effect.andThen(runSteps(steps)),
              Effect.provide(TestApplication.layer),
              Effect.provide(TestClock.layer())
            )
          )
        ),
        { numRuns: propertyRuns(60) }
      )
    )
  )
})
