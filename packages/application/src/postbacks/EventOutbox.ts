// Port: the outbox of events, of invoices and of withdrawals: an event is recorded with its deliveries, or nothing is.
import type { Company, Invoice, Timestamp } from "@fatura/domain"
import { Context, type Effect } from "effect"
import type { StorageUnavailable } from "../platform/Failures.js"

export interface NewEvent {
  readonly id: string
  /** The invoice's own postback URL, when it has one: a delivery is queued there with the event. */
  readonly postbackUrl: string | null
  readonly companyId: Company.CompanyId
  /** The invoice it is of; none for a withdrawal's. */
  readonly invoiceId: Invoice.InvoiceId | null
  readonly type: string
  readonly livemode: boolean
  readonly data: unknown
  readonly createdAt: Timestamp.Timestamp
  /** Why it happened, when its type alone does not say. */
  readonly reason?: string | undefined
}

export class EventOutbox extends Context.Service<
  EventOutbox,
  {
    /**
     * Records the event and queues its deliveries (SPEC 8.1–8.2): to its postback URL when it has one, and to every
     * webhook endpoint of its company and mode subscribed to its type (13.5), one per distinct URL, the postback URL
     * first, then the endpoints oldest first.
     */
    readonly recordEvent: (event: NewEvent) => Effect.Effect<void, StorageUnavailable>
  }
>()("@fatura/application/EventOutbox") {}
