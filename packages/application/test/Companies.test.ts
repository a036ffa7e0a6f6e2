// The company's bank account (SPEC 12.2, 13.3): set by the CLI alone, through `Companies.setBankAccount`, checked,
// and shown in Company Infos; the demo company comes with a test one.
import { describe, expect, it } from "@effect/vitest"
import type { Company } from "@fatura/domain"
import { Effect, Option } from "effect"
import { Companies } from "../src/companies/Companies.js"
import { CompanyRepository } from "../src/companies/CompanyRepository.js"
import { provided, registerMerchant } from "./support/Merchant.js"

const itau = { bankCode: "341", agency: "0001", account: "12.345", digit: "6", type: "corrente" } as const

describe("Companies.setBankAccount", () => {
  it.effect("stores the account with its bank's name, and Company Infos shows it", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const companies = yield* Companies
        expect((yield* companies.info(principal)).company.bank.code).toBe("")
        const stored = yield* companies.setBankAccount(principal.companyId, itau)
        const expected = {
          code: "341",
          name: "Itaú Unibanco S.A.",
          agency: "0001",
          account: "12345",
          digit: "6",
          type: "corrente"
        }
        expect(stored).toEqual(expected)
        expect((yield* companies.info(principal)).company.bank).toEqual(expected)
      })
    )
  )

  it.effect("refuses an account it cannot pay to, and a company that is not there, changing nothing", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const companies = yield* Companies
        const invalid = yield* Effect.flip(companies.setBankAccount(principal.companyId, { ...itau, bankCode: "999" }))
        expect(invalid).toMatchObject({ _tag: "InvalidBankAccount", field: "bankCode" })
        const missing = yield* Effect.flip(companies.setBankAccount(987_654 as Company.CompanyId, itau))
        expect(missing).toMatchObject({ _tag: "CompanyNotFound", companyId: 987_654 })
        expect((yield* companies.info(principal)).company.bank.code).toBe("")
      })
    )
  )

  it.effect("registers the demo company with a test bank account, on an empty database only", () =>
    provided(
      Effect.gen(function* () {
        const companies = yield* Companies
        const demo = Option.getOrThrow(yield* companies.registerDemoIfEmpty)
        const stored = Option.getOrThrow(yield* (yield* CompanyRepository).findById(demo.company.id))
        expect(stored.bank).toEqual(demo.company.bank)
        expect(stored.bank).toMatchObject({ code: "001", name: "Banco do Brasil S.A.", account: "12345678" })
        expect(yield* companies.registerDemoIfEmpty).toEqual(Option.none())
      })
    )
  )
})
