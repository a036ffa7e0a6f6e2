// Port: the payers an invoice is for, kept per company and mode, and the references of the cards they paid with.
import type { Company, Document, Invoice, Timestamp } from "@fatura/domain"
import { Context, type Effect } from "effect"
import type { StorageUnavailable } from "../platform/Failures.js"

/** A payer's contact data; clients are kept per company and mode, like everything else. */
export interface ClientContact {
  readonly companyId: Company.CompanyId
  readonly mode: Invoice.Mode
  readonly document: Document.Document
  readonly name: string
  readonly email: string
  readonly phone: string | null
  readonly now: Timestamp.Timestamp
}

export interface CardToAssociate {
  readonly companyId: Company.CompanyId
  readonly clientId: Invoice.ClientId
  readonly brand: string
  readonly firstDigits: string
  readonly lastDigits: string
  readonly expirationMonth: number
  readonly expirationYear: number
  readonly now: Timestamp.Timestamp
}

export class ClientRepository extends Context.Service<
  ClientRepository,
  {
    /** Creates or refreshes the company's client record for this document. */
    readonly upsertClient: (contact: ClientContact) => Effect.Effect<Invoice.Client, StorageUnavailable>
    /** The card reference of this client for this card, created on its first use. */
    readonly associateCard: (card: CardToAssociate) => Effect.Effect<Invoice.CardAssociate, StorageUnavailable>
  }
>()("@fatura/application/ClientRepository") {}
