// Port: the record of POSTs made with an Idempotency-Key (SPEC 9), scoped by company and endpoint.
import type { Company, Timestamp } from "@fatura/domain"
import { Context, type Effect } from "effect"
import type { StorageUnavailable } from "./Failures.js"

export interface IdempotencyScope {
  readonly companyId: Company.CompanyId
  readonly endpoint: string
  readonly key: string
}

export interface StoredResponse {
  readonly status: number
  readonly body: string
}

export type Claim =
  /** This request holds the key: run it, then complete or release the key. */
  | { readonly _tag: "Claimed" }
  | { readonly _tag: "Replay"; readonly response: StoredResponse }
  | { readonly _tag: "Conflict" }
  | { readonly _tag: "InProgress" }

export class IdempotencyStore extends Context.Service<
  IdempotencyStore,
  {
    /**
     * Claims the key for a request with this body hash, or tells what became of it: a finished request with the
     * same body is replayed, another body is a conflict, an unfinished one is in progress. A claim whose holder
     * died is taken over once `leaseUntil` has passed.
     */
    readonly claim: (
      scope: IdempotencyScope,
      requestHash: string,
      now: Timestamp.Timestamp,
      leaseUntil: Timestamp.Timestamp
    ) => Effect.Effect<Claim, StorageUnavailable>
    /** Stores the response of a claimed request; meant to commit with the request's own changes. */
    readonly complete: (scope: IdempotencyScope, response: StoredResponse) => Effect.Effect<void, StorageUnavailable>
    /** Lets the key go, so that a repeat runs anew (a response that is not stored). */
    readonly release: (scope: IdempotencyScope) => Effect.Effect<void, StorageUnavailable>
  }
>()("@fatura/application/IdempotencyStore") {}
