// The WithdrawalRepository contract, as withdrawals rely on it (SPEC 13.3): a withdrawal is stored with the entries
// that draw it, read back whole and listed newest first; a move writes its status, its fields and its entries; the
// sweep's claims find pending ones and those due a look in order, put a claimed one off, and skip what another
// transaction holds.
import { expect } from "@effect/vitest"
import { CompanyRepository, LedgerEntryRepository, Transactions, WithdrawalRepository } from "@fatura/application"
import { BankAccount, Cents, type Company, Timestamp, Withdrawal } from "@fatura/domain"
import { Deferred, Effect, Fiber, Option, Result } from "effect"
import { aCompany, at } from "../support/Fixtures.js"
import type { Contract } from "../support/TestDatabases.js"

const bank = Result.getOrThrow(
  BankAccount.parse({ bankCode: "341", agency: "0001", account: "12345678", digit: "9", type: "corrente" })
)

let made = 0

/** A pending withdrawal of `company` drawing `amount` and a fee of 367 from its pix balance, created at `seconds`. */
const aWithdrawal = (company: Company.Company, seconds: number, amount = 1_000): Withdrawal.Withdrawal => {
  made += 1
  const fee = Cents.make(367)
  return {
    id: `wd_contract-${process.pid}-${made}`,
    companyId: company.id,
    mode: "test",
    amount: Cents.make(amount),
    fee,
    status: "pending",
    sources: [{ balance: "pix", amount: Cents.make(amount + fee) }],
    destination: { bank, holderName: company.corporateReason, holderDocument: company.cnpj },
    rail: null,
    endToEndId: null,
    failureReason: null,
    createdAt: at(seconds),
    updatedAt: at(seconds),
    sentAt: null,
    paidAt: null
  }
}

const stored = (withdrawal: Withdrawal.Withdrawal) =>
  Effect.gen(function* () {
    yield* (yield* WithdrawalRepository).insert(withdrawal, Withdrawal.onRequested(withdrawal.sources, withdrawal.fee))
    return withdrawal
  })

export const withdrawalRepositoryContract: Contract = (it, implementation) => {
  it.effect("stores a withdrawal with the entries that draw it, and lists a company's newest first", () =>
    Effect.gen(function* () {
      const withdrawals = yield* WithdrawalRepository
      const company = yield* aCompany()
      const first = yield* stored(aWithdrawal(company, 0))
      const second = yield* stored(aWithdrawal(company, 60, 2_000))
      const sameInstant = yield* stored(aWithdrawal(company, 60, 3_000))
      yield* stored({ ...aWithdrawal(company, 90), mode: "live" })
      yield* stored(aWithdrawal(yield* aCompany(), 90))

      expect(yield* withdrawals.find(company.id, "test", first.id)).toEqual(Option.some(first))
      expect((yield* withdrawals.find(company.id, "live", first.id))._tag).toBe("None")
      const filter = { companyId: company.id, mode: "test" as const, afterId: null, status: null, limit: 10 }
      const listed = yield* withdrawals.list(filter)
      // Newest first; two of the same instant by id, the greater first.
      const tied = [second, sameInstant].sort((a, b) => (a.id < b.id ? 1 : -1))
      expect(listed.map((w) => w.id)).toEqual([...tied.map((w) => w.id), first.id])
      expect(yield* withdrawals.list({ ...filter, afterId: listed[0]!.id })).toEqual(listed.slice(1))
      expect(yield* withdrawals.list({ ...filter, status: "canceled" })).toEqual([])

      // The entries: the fee, then the amount, each a debit of the pix balance, belonging to the withdrawal.
      const operations = yield* (yield* LedgerEntryRepository).operations({
        companyId: company.id,
        mode: "test",
        beforeId: null,
        createdGte: null,
        createdLte: null,
        balance: null,
        type: null,
        limit: 10
      })
      expect(
        operations
          .filter((entry) => entry.withdrawalId === first.id)
          .map((entry) => [entry.type, entry.direction, entry.amount, entry.invoiceId])
      ).toEqual([
        ["withdrawal", "debit", 1_000, null],
        ["withdrawal_fee", "debit", 367, null]
      ])
      const totals = yield* (yield* CompanyRepository).totals(company.id, "test", at(90))
      expect(totals.balancePix).toBe(-(1_367 + 2_367 + 3_367))
    })
  )

  it.effect("writes a move with its fields and entries, and finds what is due a look in order, once", () =>
    Effect.gen(function* () {
      const withdrawals = yield* WithdrawalRepository
      const transactions = yield* Transactions
      const company = yield* aCompany()
      const withdrawal = yield* stored(aWithdrawal(company, 0))
      const pending = yield* transactions.withTransaction(withdrawals.lockPending(100))
      expect(pending.map((w) => w.id)).toContain(withdrawal.id)

      const sent = yield* transactions.withTransaction(
        withdrawals.apply(withdrawal, {
          status: "processing",
          movements: [],
          at: at(10),
          sentAt: at(10),
          nextCheckAt: at(15)
        })
      )
      expect(sent).toEqual({ ...withdrawal, status: "processing", updatedAt: at(10), sentAt: at(10) })
      expect((yield* transactions.withTransaction(withdrawals.lockPending(100))).map((w) => w.id)).not.toContain(
        withdrawal.id
      )
      expect(yield* transactions.withTransaction(withdrawals.claimDue(at(14), at(74), 100))).not.toContainEqual(sent)
      expect(yield* transactions.withTransaction(withdrawals.claimDue(at(15), at(75), 100))).toContainEqual(sent)
      // Claimed: put off until its lease ends.
      expect(yield* transactions.withTransaction(withdrawals.claimDue(at(20), at(80), 100))).not.toContainEqual(sent)

      const failed = yield* transactions.withTransaction(
        withdrawals.apply(sent, {
          ...Result.getOrThrow(Withdrawal.move(sent, "fail")),
          at: at(30),
          failureReason: "account_not_found",
          nextCheckAt: null
        })
      )
      expect(failed).toMatchObject({ status: "failed", failureReason: "account_not_found", updatedAt: at(30) })
      expect(yield* transactions.withTransaction(withdrawals.claimDue(at(9_999), at(9_999), 100))).not.toContainEqual(
        failed
      )
      // What it drew came back.
      expect((yield* (yield* CompanyRepository).totals(company.id, "test", at(30))).balancePix).toBe(0)

      const paid = yield* transactions.withTransaction(
        withdrawals.apply(yield* stored(aWithdrawal(company, 40)), {
          status: "paid",
          movements: [],
          at: at(50),
          rail: "pix",
          endToEndId: "E0000000020260302120050ABCDEF12345",
          paidAt: at(49),
          nextCheckAt: null
        })
      )
      expect(paid).toMatchObject({ rail: "pix", endToEndId: "E0000000020260302120050ABCDEF12345", paidAt: at(49) })
      expect(Timestamp.toEpochMillis(paid.updatedAt)).toBe(Timestamp.toEpochMillis(at(50)))
    })
  )

  if (implementation.concurrent) {
    it.effect("skips a withdrawal another transaction holds: a cancel and a sweep never both take one", () =>
      Effect.gen(function* () {
        const withdrawals = yield* WithdrawalRepository
        const transactions = yield* Transactions
        const company = yield* aCompany()
        const withdrawal = yield* stored(aWithdrawal(company, 0))
        const held = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const holder = yield* Effect.forkChild(
          transactions.withTransaction(
            Effect.gen(function* () {
              yield* withdrawals.lock(withdrawal.id)
              yield* Deferred.succeed(held, undefined)
              yield* Deferred.await(release)
            })
          )
        )
        yield* Deferred.await(held)
        expect((yield* transactions.withTransaction(withdrawals.lockPending(100))).map((w) => w.id)).not.toContain(
          withdrawal.id
        )
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(holder)
        expect((yield* transactions.withTransaction(withdrawals.lockPending(100))).map((w) => w.id)).toContain(
          withdrawal.id
        )
      })
    )
  }
}
