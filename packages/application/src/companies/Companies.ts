// Use cases of the company: its information with current balances, registration, blocks, its pix key and bank
// account, and 3-D Secure.
import { AutoWithdrawal, BankAccount, type Company, FeePlan, PixKey, type Timestamp } from "@fatura/domain"
import { Context, Effect, Layer, Option } from "effect"
import * as Clock from "../platform/Clock.js"
import { CompanyNotFound, PixKeyRequired, type StorageUnavailable } from "../platform/Failures.js"
import { keyPrefix, newSecretKey, newWebhookSecret, publicTokenCandidate, sha256Hex } from "../platform/Secrets.js"
import { Transactions } from "../platform/Transactions.js"
import { PostbackRepository } from "../postbacks/PostbackRepository.js"
import { CompanyRepository, companyOf } from "./CompanyRepository.js"
import type { Principal } from "./Principal.js"

export interface CompanyInfo {
  readonly company: Company.Company
  readonly totals: Company.CompanyTotals
}

export interface Registration {
  readonly cnpj: string
  readonly name: string
  readonly email: string
  /** Any form PixKey.parse reads; the email when none is given. */
  readonly pixKey?: string | undefined
  readonly feePlan?: FeePlan.FeePlan | undefined
}

export interface RegisteredCompany {
  readonly company: Company.Company
  /** A test secret key, shown once. */
  readonly secretKey: string
  /** The secret that signs the company's test-mode postbacks, shown once. */
  readonly webhookSecret: string
}

export interface ExchangeToken {
  readonly company: Company.Company
  readonly publicToken: string
  readonly activatedAt: Timestamp.Timestamp
  readonly updatedAt: Timestamp.Timestamp
}

/** The company a newcomer finds on a fresh embedded database (SPEC 12.2). */
export const demoRegistration: Registration = {
  cnpj: "11222333000181",
  name: "Loja Demonstração Ltda",
  email: "demo@fatura.dev"
}

/** The demo company's bank account: a test account, for withdrawals in the sandbox. */
export const demoBankAccount: BankAccount.BankAccountInput = {
  bankCode: "001",
  agency: "0001",
  account: "12345678",
  digit: "9",
  type: "corrente"
}

export class Companies extends Context.Service<
  Companies,
  {
    readonly info: (principal: Principal) => Effect.Effect<CompanyInfo, StorageUnavailable>
    readonly register: (
      registration: Registration
    ) => Effect.Effect<RegisteredCompany, PixKey.InvalidPixKey | PixKeyRequired | StorageUnavailable>
    /** Registers the demo company when there is no company at all; returns it when it did. */
    readonly registerDemoIfEmpty: Effect.Effect<Option.Option<RegisteredCompany>, StorageUnavailable>
    readonly setBlock: (
      companyId: Company.CompanyId,
      block: Company.BlockKind,
      blocked: boolean
    ) => Effect.Effect<void, CompanyNotFound | StorageUnavailable>
    /** Replaces the key pix payments go to; returns it as stored, in canonical form. */
    readonly setPixKey: (
      companyId: Company.CompanyId,
      pixKey: string
    ) => Effect.Effect<PixKey.PixKey, PixKey.InvalidPixKey | CompanyNotFound | StorageUnavailable>
    /**
     * Replaces the company's bank account, where its withdrawals go; returns it as stored. Only the CLI calls this:
     * a stolen API key must not be able to send the money elsewhere (SPEC 13.3).
     */
    readonly setBankAccount: (
      companyId: Company.CompanyId,
      bankAccount: BankAccount.BankAccountInput
    ) => Effect.Effect<BankAccount.BankAccount, BankAccount.InvalidBankAccount | CompanyNotFound | StorageUnavailable>
    /**
     * Sets when the company's available money goes out by itself (SPEC 13.4): `off`, `daily`, `weekly:<1-5>` or
     * `monthly:<1-28>`; returns it as stored. The CLI's, as the bank account is.
     */
    readonly setAutoWithdrawal: (
      companyId: Company.CompanyId,
      schedule: string
    ) => Effect.Effect<AutoWithdrawal.Schedule, AutoWithdrawal.InvalidSchedule | CompanyNotFound | StorageUnavailable>
    readonly activate3ds: (principal: Principal) => Effect.Effect<ExchangeToken, StorageUnavailable>
  }
>()("@fatura/application/Companies") {
  static readonly layer = Layer.effect(
    Companies,
    Effect.gen(function* () {
      const companies = yield* CompanyRepository
      const postbacks = yield* PostbackRepository
      const transactions = yield* Transactions

      const info = Effect.fn("Companies.info")(function* (principal: Principal) {
        return yield* companyOf(
          companies.findWithTotals(principal.companyId, principal.mode, yield* Clock.now),
          principal.companyId
        )
      })

      // Every pix invoice of the company carries this key, so a company is never stored with one that no BR Code
      // can hold. The email is a default worth trying, not a choice the merchant made: when it is no valid key the
      // registration asks for a key rather than quietly picking another (the CNPJ, say) that the merchant may never
      // have registered, which payers' banks would then not find.
      const pixKeyOf = (
        registration: Registration
      ): Effect.Effect<PixKey.ParsedPixKey, PixKey.InvalidPixKey | PixKeyRequired> =>
        registration.pixKey !== undefined
          ? Effect.fromResult(PixKey.parse(registration.pixKey))
          : Effect.fromResult(PixKey.parse(registration.email)).pipe(
              Effect.mapError((invalid) => new PixKeyRequired({ email: registration.email, reason: invalid.reason }))
            )

      // A registered company works in test mode; its live secrets come with its first live key (`ApiKeys`).
      const insertCompanyWithKey = Effect.fn("Companies.register")(function* (
        registration: Registration,
        pixKey: PixKey.PixKey
      ) {
        const company = yield* companies.create({
          cnpj: registration.cnpj,
          corporateReason: registration.name,
          fantasyName: registration.name,
          email: registration.email,
          pixKey,
          feePlan: registration.feePlan ?? FeePlan.defaultFeePlan,
          isCustomFeePlan: registration.feePlan !== undefined,
          now: yield* Clock.now
        })
        const webhookSecret = newWebhookSecret()
        yield* postbacks.createWebhookSecret(company.id, "test", webhookSecret, company.createdAt)
        const secretKey = newSecretKey("test")
        yield* companies.insertKey({
          companyId: company.id,
          kind: "secret",
          mode: "test",
          prefix: keyPrefix(secretKey),
          hash: yield* sha256Hex(secretKey),
          publicToken: null,
          now: company.createdAt
        })
        return { company, secretKey, webhookSecret }
      })

      const register = (registration: Registration) =>
        Effect.flatMap(pixKeyOf(registration), ({ key }) =>
          transactions.withTransaction(insertCompanyWithKey(registration, key))
        )

      const registerDemoIfEmpty = Effect.gen(function* () {
        if ((yield* companies.count) > 0) return Option.none()
        // The demo registration and bank account are constants that hold: refusing either would be a bug.
        const { key } = yield* pixKeyOf(demoRegistration).pipe(Effect.orDie)
        const bankAccount = yield* Effect.fromResult(BankAccount.parse(demoBankAccount)).pipe(Effect.orDie)
        return Option.some(
          yield* transactions.withTransaction(
            Effect.gen(function* () {
              const registered = yield* insertCompanyWithKey(demoRegistration, key)
              yield* companies.setBankAccount(registered.company.id, bankAccount, registered.company.createdAt)
              return { ...registered, company: { ...registered.company, bank: bankAccount } }
            })
          )
        )
      })

      const setBlock = Effect.fn("Companies.setBlock")(function* (
        companyId: Company.CompanyId,
        block: Company.BlockKind,
        blocked: boolean
      ) {
        const found = yield* companies.setBlock(companyId, block, blocked, yield* Clock.now)
        if (!found) return yield* new CompanyNotFound({ companyId })
      })

      const setPixKey = Effect.fn("Companies.setPixKey")(function* (companyId: Company.CompanyId, pixKey: string) {
        const { key } = yield* Effect.fromResult(PixKey.parse(pixKey))
        const found = yield* companies.setPixKey(companyId, key, yield* Clock.now)
        if (!found) return yield* new CompanyNotFound({ companyId })
        return key
      })

      const setBankAccount = Effect.fn("Companies.setBankAccount")(function* (
        companyId: Company.CompanyId,
        input: BankAccount.BankAccountInput
      ) {
        const bankAccount = yield* Effect.fromResult(BankAccount.parse(input))
        const found = yield* companies.setBankAccount(companyId, bankAccount, yield* Clock.now)
        if (!found) return yield* new CompanyNotFound({ companyId })
        return bankAccount
      })

      const setAutoWithdrawal = Effect.fn("Companies.setAutoWithdrawal")(function* (
        companyId: Company.CompanyId,
        text: string
      ) {
        const schedule = yield* Effect.fromResult(AutoWithdrawal.parse(text))
        const found = yield* companies.setAutoWithdrawal(companyId, schedule, yield* Clock.now)
        if (!found) return yield* new CompanyNotFound({ companyId })
        return schedule
      })

      const activate3ds = Effect.fn("Companies.activate3ds")(function* (principal: Principal) {
        const now = yield* Clock.now
        const activation = yield* companies.activate3ds(
          principal.companyId,
          yield* publicTokenCandidate(principal.companyId, principal.mode, now),
          now
        )
        return {
          company: yield* companyOf(companies.findById(principal.companyId), principal.companyId),
          publicToken: activation.publicToken,
          activatedAt: activation.activatedAt,
          updatedAt: activation.updatedAt
        }
      })

      return Companies.of({
        info,
        register,
        registerDemoIfEmpty,
        setBlock,
        setPixKey,
        setBankAccount,
        setAutoWithdrawal,
        activate3ds
      })
    })
  )
}
