// Use case: tokenizing a card in the payer's browser with the company's public token (SPEC 4.7). The number and
// the security code are checked and handed to the acquirer's vault; what is kept is a hash of the token and
// what may be shown of the card.
import { Card, Timestamp } from "@fatura/domain"
import { Context, Effect, Layer, Result } from "effect"
import type { PublicPrincipal } from "../companies/Principal.js"
import * as Clock from "../platform/Clock.js"
import { type AcquirerUnavailable, InvalidCardData, type StorageUnavailable } from "../platform/Failures.js"
import { randomBase62, sha256Hex } from "../platform/Secrets.js"
import { Transactions } from "../platform/Transactions.js"
import { CardAcquirer } from "./CardAcquirer.js"
import { CardTokenRepository } from "./CardTokenRepository.js"

/** A token is good for one payment within this many seconds. */
export const cardTokenLifetimeSeconds = 15 * 60

export interface CardTokenInput {
  readonly number: string
  readonly firstName: string
  readonly lastName: string
  readonly month: string
  readonly year: string
  readonly securityCode: string
}

export interface IssuedCardToken {
  readonly token: string
  readonly brand: string
  readonly firstDigits: string
  readonly lastDigits: string
  readonly expirationMonth: number
  readonly expirationYear: number
}

const cardField = <A>(result: Result.Result<A, Card.InvalidCard>) =>
  Result.isSuccess(result)
    ? Effect.succeed(result.success)
    : Effect.fail(new InvalidCardData({ field: result.failure.field, reason: result.failure.reason }))

export class CardTokens extends Context.Service<
  CardTokens,
  {
    readonly tokenize: (
      principal: PublicPrincipal,
      card: CardTokenInput
    ) => Effect.Effect<IssuedCardToken, InvalidCardData | AcquirerUnavailable | StorageUnavailable>
  }
>()("@fatura/application/CardTokens") {
  static readonly layer = Layer.effect(
    CardTokens,
    Effect.gen(function* () {
      const acquirer = yield* CardAcquirer
      const tokens = yield* CardTokenRepository
      const transactions = yield* Transactions

      const tokenize = Effect.fn("CardTokens.tokenize")(function* (principal: PublicPrincipal, card: CardTokenInput) {
        const number = yield* cardField(Card.parseNumber(card.number))
        const brand = Card.detectBrand(number)
        if (brand === undefined) {
          return yield* new InvalidCardData({ field: "number", reason: "is not a card brand we accept" })
        }
        const now = yield* Clock.now
        const [year, month] = Clock.businessDate(now).split("-").map(Number) as [number, number]
        const expiry = yield* cardField(Card.parseExpiry({ month: card.month, year: card.year }, { year, month }))
        const securityCode = yield* cardField(Card.checkSecurityCode(card.securityCode))
        const holderName = `${card.firstName} ${card.lastName}`.trim()
        // Outside any transaction. A run that dies after this leaves a card in the acquirer's vault that no token
        // names: it can charge nothing, and a repeat under the same Idempotency-Key vaults the card anew.
        const { reference } = yield* transactions.external(
          acquirer.tokenize(principal.mode, {
            number,
            holderName,
            expirationMonth: expiry.month,
            expirationYear: expiry.year,
            securityCode,
            brand
          })
        )
        const token = `card_${randomBase62(32)}`
        const masked = Card.mask(number)
        yield* tokens.create({
          tokenHash: yield* sha256Hex(token),
          companyId: principal.company.id,
          mode: principal.mode,
          brand,
          ...masked,
          holderName,
          expirationMonth: expiry.month,
          expirationYear: expiry.year,
          acquirerReference: reference,
          createdAt: now,
          expiresAt: Timestamp.plusSeconds(now, cardTokenLifetimeSeconds)
        })
        return {
          token,
          brand,
          ...masked,
          expirationMonth: expiry.month,
          expirationYear: expiry.year
        } satisfies IssuedCardToken
      })

      return CardTokens.of({ tokenize })
    })
  )
}
