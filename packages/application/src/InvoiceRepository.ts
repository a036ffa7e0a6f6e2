// Port: invoices with their clients, timelines and events.
import type { Company, Document, Invoice, InvoiceStatus, Timestamp } from "@fatura/domain"
import { Context, type Effect, type Option } from "effect"
import type { StorageUnavailable } from "./Failures.js"

export type NewInvoice = Omit<Invoice.Invoice, "id" | "client" | "cardAssociate" | "timeline" | "movements">

export type NewMovement = Omit<Invoice.Movement, "id" | "createdAt">

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

export type InvoiceReference =
  | { readonly _tag: "SecureId"; readonly secureId: Invoice.SecureId }
  | { readonly _tag: "Id"; readonly id: Invoice.InvoiceId }

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

export interface NewEvent {
  readonly id: string
  readonly companyId: Company.CompanyId
  readonly invoiceId: Invoice.InvoiceId
  readonly type: string
  readonly livemode: boolean
  readonly data: unknown
  readonly createdAt: Timestamp.Timestamp
}

export class InvoiceRepository extends Context.Service<
  InvoiceRepository,
  {
    /** Creates or refreshes the company's client record for this document. */
    readonly upsertClient: (contact: ClientContact) => Effect.Effect<Invoice.Client, StorageUnavailable>
    /** The card reference of this client for this card, created on its first use. */
    readonly associateCard: (card: CardToAssociate) => Effect.Effect<Invoice.CardAssociate, StorageUnavailable>
    /** A new, never repeated bank slip number. */
    readonly nextOurNumber: Effect.Effect<string, StorageUnavailable>
    /** Inserts the invoice with the statuses it went through and its ledger entries; returns it as stored. */
    readonly insert: (
      invoice: NewInvoice,
      client: Invoice.Client,
      cardAssociate: Invoice.CardAssociate | null,
      timeline: ReadonlyArray<{ readonly status: InvoiceStatus.InvoiceStatus; readonly event: string }>,
      movements: ReadonlyArray<NewMovement>
    ) => Effect.Effect<Invoice.Invoice, StorageUnavailable>
    /** The company's invoice of that mode; invoices of other companies or of the other mode are not found. */
    readonly find: (
      companyId: Company.CompanyId,
      mode: Invoice.Mode,
      reference: InvoiceReference
    ) => Effect.Effect<Option.Option<Invoice.Invoice>, StorageUnavailable>
    /** Any company's invoice by its secureId, for the payer's side where the checkout token authorizes. */
    readonly findBySecureId: (
      secureId: Invoice.SecureId
    ) => Effect.Effect<Option.Option<Invoice.Invoice>, StorageUnavailable>
    readonly recordEvent: (event: NewEvent) => Effect.Effect<void, StorageUnavailable>
  }
>()("@fatura/application/InvoiceRepository") {}
