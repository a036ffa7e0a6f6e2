// Port: the registrations of boletos at the bank that issued them (SPEC 15.1): queued with their invoice, taken into
// a remessa, given back to the queue when the bank refuses that file whole, and set as the bank's retorno says.
import type { Invoice, Timestamp } from "@fatura/domain"
import { Context, type Effect, type Option } from "effect"
import type { StorageUnavailable } from "../platform/Failures.js"

export interface BoletoRegistrationRecord {
  readonly invoiceId: Invoice.InvoiceId
  readonly ourNumber: string
  readonly status: Invoice.BoletoRegistration
  /** The remessa that asked for it; null while it waits for one. */
  readonly remessa: string | null
}

export class BoletoRegistrationRepository extends Context.Service<
  BoletoRegistrationRepository,
  {
    /** Queues the registration of a new invoice's boleto, `pending`, in the transaction that inserts the invoice. */
    readonly queue: (invoice: Invoice.Invoice, at: Timestamp.Timestamp) => Effect.Effect<void, StorageUnavailable>
    /** Up to `limit` invoices whose boleto waits for a remessa, oldest first. */
    readonly queued: (limit: number) => Effect.Effect<ReadonlyArray<Invoice.Invoice>, StorageUnavailable>
    /** Records that the registrations of `invoiceIds` go in `remessa`: they leave the queue. */
    readonly assign: (
      invoiceIds: ReadonlyArray<Invoice.InvoiceId>,
      remessa: string,
      at: Timestamp.Timestamp
    ) => Effect.Effect<void, StorageUnavailable>
    /** Puts back in the queue the registrations of a remessa the bank refused whole, still pending. */
    readonly release: (remessa: string, at: Timestamp.Timestamp) => Effect.Effect<number, StorageUnavailable>
    readonly findByOurNumber: (
      ourNumber: string
    ) => Effect.Effect<Option.Option<BoletoRegistrationRecord>, StorageUnavailable>
    /** Sets a registration's status, as the bank said it; the invoice shows it from then on. */
    readonly set: (
      invoiceId: Invoice.InvoiceId,
      status: Invoice.BoletoRegistration,
      at: Timestamp.Timestamp
    ) => Effect.Effect<void, StorageUnavailable>
  }
>()("@fatura/application/BoletoRegistrationRepository") {}
