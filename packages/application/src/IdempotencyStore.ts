// Port: the record of POSTs made with an Idempotency-Key (SPEC 9), scoped by who sent them and the endpoint.
import type { Company, Timestamp } from "@fatura/domain"
import { Context, type Effect } from "effect"
import type { StorageUnavailable } from "./Failures.js"

export interface IdempotencyScope {
  /**
   * Who sent the request, as the HTTP edge authenticated it: a company in one mode (test and live never share a key),
   * or the holder of one invoice's checkout token.
   */
  readonly principal: string
  /** The company the principal acts for, when it is known before the request runs (not for a checkout token). */
  readonly companyId: Company.CompanyId | null
  /** The route the request was matched to (`POST /api/v2/invoices/refund`), never the path as it was spelled. */
  readonly endpoint: string
  readonly key: string
}

export interface StoredResponse {
  readonly status: number
  readonly body: string
}

export type Claim =
  /** This request holds the key: run it, and store its response before the transaction commits. */
  | { readonly _tag: "Claimed" }
  | { readonly _tag: "Replay"; readonly response: StoredResponse }
  | { readonly _tag: "Conflict" }
  | { readonly _tag: "InProgress" }

export class IdempotencyStore extends Context.Service<
  IdempotencyStore,
  {
    /**
     * Inside a transaction: claims the key for a request with this body hash until the transaction ends, or tells
     * what became of it — a finished request with the same body is replayed, another body is a conflict, a request
     * holding the key in a live transaction is in progress. A holder that dies (its process killed, its connection
     * lost) loses its claim with its transaction, so a repeat runs at once instead of waiting out a lease.
     */
    readonly claim: (scope: IdempotencyScope, requestHash: string) => Effect.Effect<Claim, StorageUnavailable>
    /** Stores the response of the claimed request, in the transaction of the request's own changes. */
    readonly complete: (
      scope: IdempotencyScope,
      requestHash: string,
      response: StoredResponse,
      now: Timestamp.Timestamp
    ) => Effect.Effect<void, StorageUnavailable>
    /**
     * Forgets up to `limit` stored responses recorded before `recordedBefore`, oldest first, skipping any that another
     * purge is removing; how many it forgot. A repeat of a forgotten request runs anew.
     */
    readonly purge: (recordedBefore: Timestamp.Timestamp, limit: number) => Effect.Effect<number, StorageUnavailable>
  }
>()("@fatura/application/IdempotencyStore") {}
