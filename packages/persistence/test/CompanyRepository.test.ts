// The CompanyRepository contract, as registration, authentication, 3-D Secure and the key CLI rely on it: a company
// reads back as created; blocks, the pix key and the bank account change one at a time; totals are per mode and the competition month
// is São Paulo's; a key is found by its hash with its company, found by prefix, revoked once, and listed; one public token per
// company and mode.
import { expect } from "@effect/vitest"
import { CompanyRepository, type NewApiKey } from "@fatura/application"
import {
  BankAccount,
  Cents,
  Company as Companies,
  type Company,
  FeePlan,
  type Invoice,
  type PixKey,
  Receivable,
  type Timestamp
} from "@fatura/domain"
import { Effect, Option, Result } from "effect"
import { aCompany, anInvoice, at, draft, newCompany, paidNow } from "./support/Fixtures.js"
import { onEachDatabase } from "./support/TestDatabases.js"

const unknownCompany = 987_654_321 as Company.CompanyId

let keysMade = 0
/** A secret key of `company` in `mode`; every key has a hash of its own, as a hashed random key has. */
const secretKey = (company: Company.Company, mode: Invoice.Mode, prefix: string, now = at(0)): NewApiKey => {
  keysMade += 1
  return {
    companyId: company.id,
    kind: "secret",
    mode,
    prefix,
    hash: `hash-${prefix}-${keysMade}`,
    publicToken: null,
    now
  }
}

const publicKey = (company: Company.Company, mode: Invoice.Mode, token: string, now = at(0)): NewApiKey => ({
  companyId: company.id,
  kind: "public",
  mode,
  prefix: token.slice(0, 12),
  hash: `hash-${token}`,
  publicToken: token,
  now
})

onEachDatabase("CompanyRepository", (it) => {
  it.effect("reads a company back as created, with the defaults of what registration leaves out", () =>
    Effect.gen(function* () {
      const companies = yield* CompanyRepository
      const before = yield* companies.count
      const company = yield* companies.create(newCompany({ fantasyName: "Loja Nova", isCustomFeePlan: true }))

      expect(company).toMatchObject({
        cnpj: "11222333000181",
        corporateReason: "Loja Contrato Ltda",
        fantasyName: "Loja Nova",
        email: "financeiro@loja.example",
        pixKey: "financeiro@loja.example",
        isCustomFeePlan: true,
        isActive3ds: false,
        autoWithdrawal: "off",
        blocks: { system: false, processing: false, pix: false, card: false, bank_slip: false, sake: false },
        createdAt: at(0),
        updatedAt: at(0)
      })
      expect(company.feePlan).toEqual(newCompany().feePlan)
      expect(Option.getOrThrow(yield* companies.findById(company.id))).toEqual(company)
      expect(Option.isNone(yield* companies.findById(unknownCompany))).toBe(true)
      expect(yield* companies.count).toBe(before + 1)
    })
  )

  it.effect("sets each block on its own, and says when no company has the id", () =>
    Effect.gen(function* () {
      const companies = yield* CompanyRepository
      for (const block of Companies.BlockKind.literals) {
        const company = yield* aCompany()
        expect(yield* companies.setBlock(company.id, block, true, at(60))).toBe(true)
        const blocked = Option.getOrThrow(yield* companies.findById(company.id))
        expect(blocked.blocks).toEqual({ ...company.blocks, [block]: true })
        expect(blocked.updatedAt).toBe(at(60))
        expect(yield* companies.setBlock(company.id, block, false, at(120))).toBe(true)
        expect(Option.getOrThrow(yield* companies.findById(company.id)).blocks).toEqual(company.blocks)
      }
      expect(yield* companies.setBlock(unknownCompany, "pix", true, at(60))).toBe(false)
    })
  )

  it.effect("replaces the pix key, and says when no company has the id", () =>
    Effect.gen(function* () {
      const companies = yield* CompanyRepository
      const company = yield* aCompany()
      const key = "+5511987654321" as PixKey.PixKey

      expect(yield* companies.setPixKey(company.id, key, at(60))).toBe(true)
      expect(Option.getOrThrow(yield* companies.findById(company.id))).toEqual({
        ...company,
        pixKey: key,
        updatedAt: at(60)
      })
      expect(yield* companies.setPixKey(unknownCompany, key, at(60))).toBe(false)
    })
  )

  it.effect("has no bank account until one is set, then reads it back; says when no company has the id", () =>
    Effect.gen(function* () {
      const companies = yield* CompanyRepository
      const company = yield* aCompany()
      expect(company.bank).toEqual({ code: "", name: "", agency: "", account: "", digit: "", type: "corrente" })
      const bank = Result.getOrThrow(
        BankAccount.parse({ bankCode: "260", agency: "0001", account: "9876543", digit: "2", type: "poupanca" })
      )

      expect(yield* companies.setBankAccount(company.id, bank, at(60))).toBe(true)
      expect(Option.getOrThrow(yield* companies.findById(company.id))).toEqual({ ...company, bank, updatedAt: at(60) })
      expect(yield* companies.setBankAccount(unknownCompany, bank, at(60))).toBe(false)
    })
  )

  it.effect("keeps totals per mode: a new company has none, and test money never shows in live", () =>
    Effect.gen(function* () {
      const companies = yield* CompanyRepository
      const company = yield* aCompany()
      const zero = Companies.zeroTotals
      expect(yield* companies.totals(company.id, "test", at(0))).toEqual(zero)

      const paid = (mode: Invoice.Mode, method: "pix" | "bank_slip", amount: number) => {
        const invoice = draft(company, { mode, method, amount: Cents.make(amount), status: "paid", paidAt: at(0) })
        return anInvoice(company, invoice, paidNow(invoice))
      }
      const pix = yield* paid("test", "pix", 10_000)
      const slip = yield* paid("test", "bank_slip", 5_000)
      const live = yield* paid("live", "pix", 20_000)
      // A boleto paid on the default plan waits for the next business day.
      const waitingSlip = draft(company, {
        method: "bank_slip",
        amount: Cents.make(3_000),
        status: "paid",
        paidAt: at(0)
      })
      const waiting = yield* anInvoice(
        company,
        waitingSlip,
        Receivable.schedule(FeePlan.defaultFeePlan, {
          method: "bank_slip",
          installments: 1,
          amount: waitingSlip.amount,
          fee: Cents.make(waitingSlip.fee.estimatedFee),
          paidAt: at(0)
        })
      )

      const test = {
        balancePix: 10_000 - pix.fee.estimatedFee,
        balanceCard: 0,
        balanceBankSlip: 5_000 - slip.fee.estimatedFee,
        waitingPix: 0,
        waitingCard: 0,
        waitingBankSlip: 3_000 - waiting.fee.estimatedFee,
        amountInvoiceTotal: 18_000,
        amountInvoicesCompeticion: 18_000
      }
      expect(yield* companies.totals(company.id, "test", at(0))).toEqual(test)
      expect(yield* companies.totals(company.id, "live", at(0))).toEqual({
        ...zero,
        balancePix: 20_000 - live.fee.estimatedFee,
        amountInvoiceTotal: 20_000,
        amountInvoicesCompeticion: 20_000
      })
      const found = Option.getOrThrow(yield* companies.findWithTotals(company.id, "test", at(0)))
      expect(found).toEqual({ company: Option.getOrThrow(yield* companies.findById(company.id)), totals: test })
      expect(Option.isNone(yield* companies.findWithTotals(unknownCompany, "test", at(0)))).toBe(true)
    })
  )

  it.effect("counts a payment in the São Paulo calendar month it was made in", () =>
    Effect.gen(function* () {
      const companies = yield* CompanyRepository
      const company = yield* aCompany()
      // 02:59:59 UTC on the 1st of October is still the 30th of September in São Paulo (UTC−3).
      const paidAt = "2026-10-01T02:59:59.000000Z" as Timestamp.Timestamp
      yield* anInvoice(company, { status: "paid", paidAt, createdAt: paidAt, amount: Cents.make(10_000) })

      const inSeptember = yield* companies.totals(
        company.id,
        "test",
        "2026-09-15T12:00:00.000000Z" as Timestamp.Timestamp
      )
      const inOctober = yield* companies.totals(
        company.id,
        "test",
        "2026-10-01T03:00:00.000000Z" as Timestamp.Timestamp
      )
      expect([inSeptember.amountInvoicesCompeticion, inSeptember.amountInvoiceTotal]).toEqual([10_000, 10_000])
      expect([inOctober.amountInvoicesCompeticion, inOctober.amountInvoiceTotal]).toEqual([0, 10_000])
    })
  )

  it.effect("finds a key by its hash with its company as it is now; an unknown hash finds nothing", () =>
    Effect.gen(function* () {
      const companies = yield* CompanyRepository
      const company = yield* aCompany()
      const key = secretKey(company, "live", "sk_live_abcd")
      const record = yield* companies.insertKey(key)

      expect(record).toEqual({
        id: record.id,
        companyId: company.id,
        kind: "secret",
        mode: "live",
        prefix: "sk_live_abcd",
        createdAt: at(0),
        revokedAt: null
      })
      yield* companies.setBlock(company.id, "system", true, at(30))
      const found = Option.getOrThrow(yield* companies.findKeyByHash(key.hash))
      expect(found.key).toEqual(record)
      expect(found.company).toEqual(Option.getOrThrow(yield* companies.findById(company.id)))
      expect(found.company.blocks.system).toBe(true)
      expect(Option.isNone(yield* companies.findKeyByHash("hash-of-no-key"))).toBe(true)
    })
  )

  it.effect("finds the active secret keys of a prefix, revokes a key once, and lists a company's keys in order", () =>
    Effect.gen(function* () {
      const companies = yield* CompanyRepository
      const company = yield* aCompany()
      const other = yield* aCompany()
      const prefix = `sk_test_${company.id}`
      const first = yield* companies.insertKey(secretKey(company, "test", prefix))
      const second = yield* companies.insertKey(secretKey(company, "test", prefix))
      const kept = yield* companies.insertKey(secretKey(company, "live", `sk_live_${company.id}`))
      yield* companies.insertKey(secretKey(other, "test", `sk_test_${other.id}`))
      yield* companies.publicToken(publicKey(company, "test", `pk_test_${company.id}_token`))

      expect(yield* companies.activeSecretKeys(prefix)).toEqual([first, second])
      expect(yield* companies.revokeKey(first.id, at(60))).toBe(true)
      expect(yield* companies.revokeKey(first.id, at(120))).toBe(false)
      expect(yield* companies.activeSecretKeys(prefix)).toEqual([second])
      expect(yield* companies.activeSecretKeys("sk_test_nothing")).toEqual([])

      const listed = yield* companies.listKeys(company.id)
      expect(listed).toEqual([{ ...first, revokedAt: at(60) }, second, kept])
      expect(yield* companies.listKeys(unknownCompany)).toEqual([])
    })
  )

  it.effect("keeps one public token per company and mode: the first one given", () =>
    Effect.gen(function* () {
      const companies = yield* CompanyRepository
      const company = yield* aCompany()
      const first = `pk_test_${company.id}_first`

      expect(yield* companies.publicToken(publicKey(company, "test", first))).toBe(first)
      expect(yield* companies.publicToken(publicKey(company, "test", `pk_test_${company.id}_second`))).toBe(first)
      const live = `pk_live_${company.id}_first`
      expect(yield* companies.publicToken(publicKey(company, "live", live))).toBe(live)
      // Public tokens are found by their hash like any key, and are no secret key to list or revoke.
      const found = Option.getOrThrow(yield* companies.findKeyByHash(`hash-${first}`))
      expect([found.key.kind, found.key.mode, found.company.id]).toEqual(["public", "test", company.id])
      expect(Option.isNone(yield* companies.findKeyByHash(`hash-pk_test_${company.id}_second`))).toBe(true)
      expect(yield* companies.listKeys(company.id)).toEqual([])
    })
  )

  it.effect("activates 3-D Secure once: later calls keep the token and the activation time", () =>
    Effect.gen(function* () {
      const companies = yield* CompanyRepository
      const company = yield* aCompany()
      const token = `pk_test_${company.id}_3ds`

      const first = yield* companies.activate3ds(company.id, publicKey(company, "test", token, at(60)), at(60))
      expect(first).toEqual({ publicToken: token, activatedAt: at(60), updatedAt: at(60) })
      expect(Option.getOrThrow(yield* companies.findById(company.id))).toMatchObject({
        isActive3ds: true,
        updatedAt: at(60)
      })

      const again = yield* companies.activate3ds(
        company.id,
        publicKey(company, "test", `pk_test_${company.id}_later`, at(120)),
        at(120)
      )
      expect(again).toEqual({ publicToken: token, activatedAt: at(60), updatedAt: at(120) })
      const live = yield* companies.activate3ds(
        company.id,
        publicKey(company, "live", `pk_live_${company.id}_3ds`),
        at(180)
      )
      expect(live).toEqual({ publicToken: `pk_live_${company.id}_3ds`, activatedAt: at(60), updatedAt: at(180) })
    })
  )
})
