// A card payment's steps, the same for an invoice created with a card and for a payer paying a pending card invoice:
// the card checked (a token's vaulted card used up, or the card fields as sent) and shown masked, its installments,
// its 3-D Secure outcome, and the card associated with the payer. The card number and security code go no further
// than the acquirer.
import { Card, type Cents, type Company, type Invoice, type Timestamp } from "@fatura/domain"
import { Effect, Option, Result } from "effect"
import { CardTokenRepository } from "../cards/CardTokenRepository.js"
import type { ClientRepository } from "../invoices/ClientRepository.js"
import * as Clock from "../platform/Clock.js"
import { InvalidCardData } from "../platform/Failures.js"
import { sha256Hex } from "../platform/Secrets.js"
import type { CardData, CardSource, ThreeDSecureOutcome } from "./CardAcquirer.js"

export interface CardInput {
  readonly token: string | null
  readonly installment: number | null
  readonly number: string | null
  readonly firstName: string | null
  readonly lastName: string | null
  readonly month: string | null
  readonly year: string | null
  readonly securityCode: string | null
  readonly cavv: string | null
  readonly eci: string | null
  readonly version: string | null
}

/** A card checked and ready to charge: as the acquirer gets it, and as the invoice shows it. */
export interface PreparedCard {
  readonly source: CardSource
  readonly details: Invoice.CardDetails
  readonly threeDSecure: ThreeDSecureOutcome
  /** Refused without asking the acquirer: the company requires 3-D Secure and the payment was not authenticated. */
  readonly refusedUpfront: boolean
}

/** Who pays: the company the card is for, in the mode of the invoice. */
interface Payee {
  readonly company: Company.Company
  readonly mode: Invoice.Mode
}

/** The installments asked for (one when none), in the contract's words when out of range. */
export const checkInstallments = (amount: Cents.Cents, requested: number | null) =>
  Effect.fromResult(Card.checkInstallments(amount, requested ?? 1)).pipe(
    Effect.catchTag("InvalidInstallments", () =>
      Effect.fail(new InvalidCardData({ field: "card.installment", reason: "must be from 1 to 12" }))
    )
  )

const cardField = <A>(result: Result.Result<A, Card.InvalidCard>) =>
  Result.isSuccess(result)
    ? Effect.succeed(result.success)
    : Effect.fail(new InvalidCardData({ field: `card.${result.failure.field}`, reason: result.failure.reason }))

const wireNames = { firstName: "first_name", lastName: "last_name", securityCode: "security_code" } as const

export const make = Effect.gen(function* () {
  const cardTokens = yield* CardTokenRepository

  /** The card to charge: a token's vaulted card (used up here), or the card fields as sent. */
  const cardSource = Effect.fnUntraced(function* (payee: Payee, card: CardInput, now: Timestamp.Timestamp) {
    if (card.token !== null) {
      const vaulted = yield* cardTokens.consume(payee.company.id, payee.mode, yield* sha256Hex(card.token), now)
      if (Option.isNone(vaulted)) {
        return yield* new InvalidCardData({ field: "card.token", reason: "unknown, used or expired card token" })
      }
      const { acquirerReference, ...shown } = vaulted.value
      return { source: { _tag: "Vaulted", reference: acquirerReference, brand: shown.brand }, shown } as const
    }
    const missing = (["number", "firstName", "lastName", "month", "year", "securityCode"] as const).find(
      (name) => card[name] === null
    )
    if (missing !== undefined) {
      const name = missing in wireNames ? wireNames[missing as keyof typeof wireNames] : missing
      return yield* new InvalidCardData({ field: `card.${name}`, reason: "is required" })
    }
    const number = Card.normalizeNumber(card.number ?? "")
    const brand = Card.detectBrand(number)
    if (brand === undefined) {
      return yield* new InvalidCardData({ field: "card.number", reason: "is not a card brand we accept" })
    }
    const [year, month] = Clock.businessDate(now).split("-").map(Number) as [number, number]
    const expiry = yield* cardField(
      Card.parseExpiry({ month: card.month ?? "", year: card.year ?? "" }, { year, month })
    )
    const holderName = `${card.firstName} ${card.lastName}`.trim()
    const data: CardData = {
      number,
      holderName,
      expirationMonth: expiry.month,
      expirationYear: expiry.year,
      securityCode: card.securityCode ?? "",
      brand
    }
    return {
      source: { _tag: "Card", ...data },
      shown: { brand, ...Card.mask(number), holderName, expirationMonth: expiry.month, expirationYear: expiry.year }
    } as const
  })

  /** Checks the card, and whether the company's 3-D Secure rule refuses it before any acquirer is asked. */
  const prepare = Effect.fnUntraced(function* (payee: Payee, card: CardInput, now: Timestamp.Timestamp) {
    const { source, shown } = yield* cardSource(payee, card, now)
    const threeDSecure = Card.classifyThreeDSecure({ eci: card.eci, cavv: card.cavv })
    const details: Invoice.CardDetails = {
      ...shown,
      threeDSecure:
        card.eci === null && card.cavv === null
          ? null
          : { eci: card.eci, version: card.version, authenticated: threeDSecure === "authenticated" }
    }
    return {
      source,
      details,
      threeDSecure,
      refusedUpfront: payee.company.isActive3ds && threeDSecure === "unauthenticated"
    } satisfies PreparedCard
  })

  return { prepare }
})

/** The card as the payer's cards remember it (masked), associated with the payer: its id. */
export const associate = (
  clients: ClientRepository["Service"],
  company: Company.Company,
  clientId: Invoice.ClientId,
  details: Invoice.CardDetails,
  now: Timestamp.Timestamp
) =>
  clients.associateCard({
    companyId: company.id,
    clientId,
    brand: details.brand,
    firstDigits: details.firstDigits,
    lastDigits: details.lastDigits,
    expirationMonth: details.expirationMonth,
    expirationYear: details.expirationYear,
    now
  })
