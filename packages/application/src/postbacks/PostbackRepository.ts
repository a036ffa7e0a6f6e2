// Port: the events of invoices and their postback deliveries (SPEC 8), with signing secrets.
import type { Company, Invoice, Timestamp } from "@fatura/domain"
import { Context, type Effect, type Option } from "effect"
import type { StorageUnavailable } from "../platform/Failures.js"

export interface StoredEvent {
  readonly id: string
  readonly type: string
  readonly createdAt: Timestamp.Timestamp
  readonly livemode: boolean
  readonly data: unknown
  readonly reason: string | null
}

/** A delivery taken by one worker until `leaseUntil`: no other worker takes it before then. */
export interface ClaimedDelivery {
  readonly id: number
  readonly attempt: number
  readonly url: string
  readonly livemode: boolean
  readonly eventId: string
  readonly eventType: string
  /** The exact bytes every attempt sends: the event as JSON. */
  readonly body: string
  /** The secrets that sign it: every secret of the event's mode that still signs, newest first. */
  readonly secrets: ReadonlyArray<string>
}

export type AttemptOutcome =
  | { readonly _tag: "Succeeded" }
  | { readonly _tag: "Retry"; readonly nextAttemptAt: Timestamp.Timestamp }
  | { readonly _tag: "Failed" }

export interface Attempt {
  readonly deliveryId: number
  readonly attempt: number
  readonly worker: string
  readonly startedAt: Timestamp.Timestamp
  readonly finishedAt: Timestamp.Timestamp
  readonly statusCode: number | null
  readonly error: string | null
  readonly durationMs: number
  readonly outcome: AttemptOutcome
}

export interface Delivery {
  readonly id: number
  readonly eventId: string
  /** The webhook endpoint it was queued for; null for an invoice's own postback URL. */
  readonly endpointId: string | null
  readonly url: string
  readonly status: "pending" | "succeeded" | "failed"
  readonly attempts: number
  readonly lastStatusCode: number | null
  readonly lastError: string | null
  readonly nextAttemptAt: Timestamp.Timestamp | null
  readonly createdAt: Timestamp.Timestamp
  readonly updatedAt: Timestamp.Timestamp
}

export interface EventFilter {
  readonly companyId: Company.CompanyId
  readonly livemode: boolean
  /** Only events recorded before the one at this position (see `eventPosition`). */
  readonly before: number | null
  readonly type: string | null
  readonly invoiceId: Invoice.InvoiceId | null
  readonly limit: number
}

export class PostbackRepository extends Context.Service<
  PostbackRepository,
  {
    /** Takes up to `limit` deliveries that are due and not held by a live lease, for `worker`, until `leaseUntil`. */
    readonly claimDue: (options: {
      readonly now: Timestamp.Timestamp
      readonly leaseUntil: Timestamp.Timestamp
      readonly worker: string
      readonly limit: number
    }) => Effect.Effect<ReadonlyArray<ClaimedDelivery>, StorageUnavailable>
    /** Records an attempt and what follows from it; a late result of a lost lease changes nothing. */
    readonly recordAttempt: (attempt: Attempt) => Effect.Effect<void, StorageUnavailable>
    readonly listDeliveries: (
      companyId: Company.CompanyId,
      filter: { readonly eventId: string } | { readonly invoiceId: Invoice.InvoiceId }
    ) => Effect.Effect<ReadonlyArray<Delivery>, StorageUnavailable>
    /**
     * Makes the delivery due now, also when it had failed; false when the company has no such delivery of an event of
     * `mode`: a test key never touches a live delivery, nor a live key a test one.
     */
    readonly retry: (
      companyId: Company.CompanyId,
      mode: Invoice.Mode,
      deliveryId: number,
      now: Timestamp.Timestamp
    ) => Effect.Effect<boolean, StorageUnavailable>
    /** Newest first; one more than `limit` tells whether there is a next page. */
    readonly listEvents: (filter: EventFilter) => Effect.Effect<ReadonlyArray<StoredEvent>, StorageUnavailable>
    /** Where the company's event stands in the order events were recorded, when it is the company's. */
    readonly eventPosition: (
      companyId: Company.CompanyId,
      livemode: boolean,
      eventId: string
    ) => Effect.Effect<Option.Option<number>, StorageUnavailable>
    /**
     * Inside a transaction: removes up to `limit` events recorded before `recordedBefore`, oldest first, each with its
     * deliveries and their attempts — except an event with a delivery still pending (due, leased, retrying or retried
     * by hand), which stays until its delivery succeeds or fails. Events another purge holds are skipped, not waited
     * for. Tells how many events it removed.
     */
    readonly purgeEvents: (
      recordedBefore: Timestamp.Timestamp,
      limit: number
    ) => Effect.Effect<number, StorageUnavailable>
    /**
     * Makes `secret` the company's signing secret of `mode` when it has none for that mode yet; false when it had
     * one, which stays.
     */
    readonly createWebhookSecret: (
      companyId: Company.CompanyId,
      mode: Invoice.Mode,
      secret: string,
      now: Timestamp.Timestamp
    ) => Effect.Effect<boolean, StorageUnavailable>
    /**
     * Makes `secret` the signing secret of `mode`; the one it replaces keeps signing until `overlapUntil`, beside
     * those rolled before it that still sign — the newest `rolledAtMost` of them all told: older ones stop signing
     * at once.
     */
    readonly rollWebhookSecret: (
      companyId: Company.CompanyId,
      mode: Invoice.Mode,
      secret: string,
      now: Timestamp.Timestamp,
      overlap: { readonly until: Timestamp.Timestamp; readonly rolledAtMost: number }
    ) => Effect.Effect<void, StorageUnavailable>
  }
>()("@fatura/application/PostbackRepository") {}
