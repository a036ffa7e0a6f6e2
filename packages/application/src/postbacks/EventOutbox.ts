// Port: the outbox of invoice events: an event is recorded with the delivery of its postback, or neither is.
import type { Company, Invoice, Timestamp } from "@fatura/domain"
import { Context, type Effect } from "effect"
import type { StorageUnavailable } from "../platform/Failures.js"

export interface NewEvent {
  readonly id: string
  /** Where the event is to be posted; a delivery is queued with the event when there is one. */
  readonly postbackUrl: string | null
  readonly companyId: Company.CompanyId
  readonly invoiceId: Invoice.InvoiceId
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
    /** Records the event, and queues its delivery when it has a postback URL (SPEC 8.1). */
    readonly recordEvent: (event: NewEvent) => Effect.Effect<void, StorageUnavailable>
  }
>()("@fatura/application/EventOutbox") {}
