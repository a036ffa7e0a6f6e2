// Port: the registrations of boletos at the bank that issued them (SPEC 15.1): queued with their invoice, taken into
// a remessa, given back to the queue when the bank refuses that file whole, and set as the bank's retorno says; the
// payment the bank reported, once; and the boleto withdrawn from the bank when its invoice was paid otherwise (by its
// pix): a registration not sent yet never goes, one sent is written off by a later remessa.
import type { Cents, Invoice, Timestamp } from "@fatura/domain"
import { Context, type Effect, type Option } from "effect"
import type { StorageUnavailable } from "../platform/Failures.js"

export interface BoletoRegistrationRecord {
  readonly invoiceId: Invoice.InvoiceId
  readonly ourNumber: string
  readonly status: Invoice.BoletoRegistration
  /** The remessa that asked for it; null while it waits for one. */
  readonly remessa: string | null
  /** What the bank said it received for the boleto; null until it says. */
  readonly paidAmount: Cents.Cents | null
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
    /**
     * Puts back in their queues the registrations (still pending, not withdrawn) and the write-offs of a remessa the
     * bank refused whole; how many.
     */
    readonly release: (remessa: string, at: Timestamp.Timestamp) => Effect.Effect<number, StorageUnavailable>
    /**
     * Keeps what the bank said it received for the boleto of `invoiceId`: false when it said so before (the same
     * answer heard again), and nothing changes.
     */
    readonly recordBankPayment: (
      invoiceId: Invoice.InvoiceId,
      amount: Cents.Cents,
      at: Timestamp.Timestamp
    ) => Effect.Effect<boolean, StorageUnavailable>
    /**
     * Withdraws the boleto of an invoice paid otherwise: a registration still queued leaves the queue for good, one
     * sent has its write-off queued (once). Nothing for an invoice whose boleto the bank does not register.
     */
    readonly withdraw: (
      invoiceId: Invoice.InvoiceId,
      at: Timestamp.Timestamp
    ) => Effect.Effect<void, StorageUnavailable>
    /** Up to `limit` invoices whose boleto's write-off waits for a remessa, oldest first. */
    readonly queuedWriteOffs: (limit: number) => Effect.Effect<ReadonlyArray<Invoice.Invoice>, StorageUnavailable>
    /** Records that the write-offs of `invoiceIds` go in `remessa`: they leave the queue. */
    readonly assignWriteOffs: (
      invoiceIds: ReadonlyArray<Invoice.InvoiceId>,
      remessa: string,
      at: Timestamp.Timestamp
    ) => Effect.Effect<void, StorageUnavailable>
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
