// The CardTokenRepository contract, as card tokenization and payment rely on it: a token gives its card once, to its
// own company and mode, before it expires; however many payments race for it, one gets the card.
import { randomUUID } from "node:crypto"
import { expect } from "@effect/vitest"
import { CardTokenRepository, type NewCardToken, type VaultedCard } from "@fatura/application"
import type { Company } from "@fatura/domain"
import { Effect, Option } from "effect"
import { aCompany, at } from "./support/Fixtures.js"
import { onEachDatabase } from "./support/TestDatabases.js"

const vaulted: VaultedCard = {
  brand: "mastercard",
  firstDigits: "555555",
  lastDigits: "4444",
  holderName: "MARIA PAGADORA",
  expirationMonth: 7,
  expirationYear: 2032,
  acquirerReference: "acq_card_123"
}

/** A token of `company` made at 0 that expires at 900 (15 minutes). */
const tokenOf = (company: Company.Company, mode: "test" | "live" = "test"): NewCardToken => ({
  ...vaulted,
  tokenHash: `hash-${randomUUID()}`,
  companyId: company.id,
  mode,
  createdAt: at(0),
  expiresAt: at(900)
})

onEachDatabase("CardTokenRepository", (it) => {
  it.effect("gives a token's card once", () =>
    Effect.gen(function* () {
      const tokens = yield* CardTokenRepository
      const company = yield* aCompany()
      const token = tokenOf(company)
      yield* tokens.create(token)

      expect(Option.getOrThrow(yield* tokens.consume(company.id, "test", token.tokenHash, at(60)))).toEqual(vaulted)
      expect(Option.isNone(yield* tokens.consume(company.id, "test", token.tokenHash, at(61)))).toBe(true)
      expect(Option.isNone(yield* tokens.consume(company.id, "test", "hash-of-no-token", at(60)))).toBe(true)
    })
  )

  it.effect("gives nothing from the instant a token expires", () =>
    Effect.gen(function* () {
      const tokens = yield* CardTokenRepository
      const company = yield* aCompany()
      const expired = tokenOf(company)
      const justInTime = tokenOf(company)
      yield* tokens.create(expired)
      yield* tokens.create(justInTime)

      expect(Option.isNone(yield* tokens.consume(company.id, "test", expired.tokenHash, at(900)))).toBe(true)
      expect(Option.isSome(yield* tokens.consume(company.id, "test", justInTime.tokenHash, at(899)))).toBe(true)
    })
  )

  it.effect("gives nothing to another company or mode, and leaves the token to its own", () =>
    Effect.gen(function* () {
      const tokens = yield* CardTokenRepository
      const company = yield* aCompany()
      const other = yield* aCompany()
      const token = tokenOf(company, "live")
      yield* tokens.create(token)

      expect(Option.isNone(yield* tokens.consume(other.id, "live", token.tokenHash, at(60)))).toBe(true)
      expect(Option.isNone(yield* tokens.consume(company.id, "test", token.tokenHash, at(60)))).toBe(true)
      expect(Option.getOrThrow(yield* tokens.consume(company.id, "live", token.tokenHash, at(60)))).toEqual(vaulted)
    })
  )

  it.effect("gives the card to one of many payments racing for the token", () =>
    Effect.gen(function* () {
      const tokens = yield* CardTokenRepository
      const company = yield* aCompany()
      const token = tokenOf(company)
      yield* tokens.create(token)

      const results = yield* Effect.all(
        Array.from({ length: 8 }, () => tokens.consume(company.id, "test", token.tokenHash, at(60))),
        { concurrency: "unbounded" }
      )
      expect(results.filter(Option.isSome)).toHaveLength(1)
    })
  )
})
