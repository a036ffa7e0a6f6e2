// Port: card tokens (SPEC 4.7) — what a payer's browser gets back for card data, good for one payment within
// 15 minutes. Only a hash of the token is kept, and no card number or security code at all.
import type { Company, Invoice, Timestamp } from "@fatura/domain"
import { Context, type Effect, type Option } from "effect"
import type { StorageUnavailable } from "../platform/Failures.js"

export interface VaultedCard {
  readonly brand: string
  readonly firstDigits: string
  readonly lastDigits: string
  readonly holderName: string
  readonly expirationMonth: number
  readonly expirationYear: number
  /** The acquirer's own reference to the card, for the charge. */
  readonly acquirerReference: string
}

export interface NewCardToken extends VaultedCard {
  readonly tokenHash: string
  readonly companyId: Company.CompanyId
  readonly mode: Invoice.Mode
  readonly createdAt: Timestamp.Timestamp
  readonly expiresAt: Timestamp.Timestamp
}

export class CardTokenRepository extends Context.Service<
  CardTokenRepository,
  {
    readonly create: (token: NewCardToken) => Effect.Effect<void, StorageUnavailable>
    /** Uses the token up, once: the company's unexpired, unused token with this hash, or nothing. */
    readonly consume: (
      companyId: Company.CompanyId,
      mode: Invoice.Mode,
      tokenHash: string,
      now: Timestamp.Timestamp
    ) => Effect.Effect<Option.Option<VaultedCard>, StorageUnavailable>
  }
>()("@fatura/application/CardTokenRepository") {}
