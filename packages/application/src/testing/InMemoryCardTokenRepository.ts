// The CardTokenRepository port in memory: a token is used at most once, however many payments race for it.
import { Effect, Layer, Option } from "effect"
import { CardTokenRepository, type VaultedCard } from "../cards/CardTokenRepository.js"
import { InMemoryDatabase, violated } from "./InMemoryDatabase.js"
import { put } from "./InMemoryTables.js"

export const layer = Layer.effect(
  CardTokenRepository,
  Effect.gen(function* () {
    const database = yield* InMemoryDatabase
    const tokenLock = (tokenHash: string) => `card_tokens ${tokenHash}`

    return CardTokenRepository.of({
      create: (token) =>
        database.statement(
          Effect.gen(function* () {
            if (!/^[0-9]{6}$/.test(token.firstDigits) || !/^[0-9]{4}$/.test(token.lastDigits)) {
              return yield* violated("card_tokens_check", "first digits are 6 digits, last digits 4")
            }
            yield* database.lock(tokenLock(token.tokenHash))
            const clash = yield* database.read((tables) =>
              tables.cardTokens.has(token.tokenHash)
                ? "card_tokens_pkey"
                : tables.companies.has(token.companyId)
                  ? undefined
                  : "card_tokens_company_id_fkey"
            )
            if (clash !== undefined) return yield* violated(clash, "the card token cannot be stored")
            yield* database.write(put("cardTokens", token.tokenHash, { ...token, usedAt: null }))
          })
        ),

      consume: (companyId, mode, tokenHash, now) =>
        database.statement(
          Effect.gen(function* () {
            // A second payment with the token waits for the first to end, then finds it used.
            yield* database.lock(tokenLock(tokenHash))
            const token = yield* database.read((tables) => tables.cardTokens.get(tokenHash))
            if (
              token === undefined ||
              token.companyId !== companyId ||
              token.mode !== mode ||
              token.usedAt !== null ||
              !(token.expiresAt > now)
            ) {
              return Option.none()
            }
            yield* database.write(put("cardTokens", tokenHash, { ...token, usedAt: now }))
            return Option.some<VaultedCard>({
              brand: token.brand,
              firstDigits: token.firstDigits,
              lastDigits: token.lastDigits,
              holderName: token.holderName,
              expirationMonth: token.expirationMonth,
              expirationYear: token.expirationYear,
              acquirerReference: token.acquirerReference
            })
          })
        )
    })
  })
)
