// Port: the record of POSTs made with an Idempotency-Key (SPEC 9), scoped by who sent them and the endpoint.
import type { Company, Timestamp } from "@fatura/domain"
import { Context, Data, Duration, Effect } from "effect"
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

export type Lease =
  /**
   * This request holds the key until `token`'s lease runs out. `recoveryPoint` is what a holder before it recorded of
   * how far it got (`checkpoint`) before it died or gave up; null for a first run.
   */
  | { readonly _tag: "Leased"; readonly token: string; readonly recoveryPoint: string | null }
  | { readonly _tag: "Replay"; readonly response: StoredResponse }
  | { readonly _tag: "Conflict" }
  | { readonly _tag: "InProgress" }

/**
 * How long a request that calls a provider holds its key before a repeat may take it over: longer than such a
 * request can run (its provider calls are bounded well below it), so a live holder is never taken over; a holder that
 * is, is fenced off all the same (`checkpoint`, `finish`). The default of `IdempotencyLeaseSeconds`.
 */
export const leaseDuration: Duration.Input = "60 seconds"

/**
 * The lease, in seconds, that a request that calls a provider holds its key by (`leaseDuration` unless a program
 * sets it; the server's `FATURA_IDEMPOTENCY_LEASE_SECONDS`). Whoever sets it keeps it longer than such a request can
 * run; it is only how long a repeat waits after its holder died.
 */
export const IdempotencyLeaseSeconds = Context.Reference<number>("@fatura/application/IdempotencyLeaseSeconds", {
  defaultValue: () => Duration.toSeconds(Duration.fromInputUnsafe(leaseDuration))
})

/**
 * The key of the fingerprints by which a repeat's card data is compared with the first request's: a keyed hash of the
 * card's number and security code stands in for them, so that two cards that show the same first six and last four
 * digits are told apart without either being stored. Every process must use the same key, and keep it for as long as
 * responses are kept (`RetentionPeriods.idempotency`): a repeat fingerprinted under another key is a conflict. `null`,
 * the default, uses the key the store keeps for the whole deployment (`IdempotencyStore.fingerprintKey`); the server's
 * `FATURA_IDEMPOTENCY_FINGERPRINT_KEY` sets one, which a copy of the database alone then does not hold.
 */
export const IdempotencyFingerprintKey = Context.Reference<string | null>(
  "@fatura/application/IdempotencyFingerprintKey",
  { defaultValue: () => null }
)

/**
 * The request being run under a leased Idempotency-Key, for the use cases that call providers: where an earlier run
 * of it got to, and how to record how far this one gets, in the transaction that gets there.
 */
export interface IdempotentRun {
  readonly recoveryPoint: string | null
  /** In the caller's transaction; a run whose lease was taken over fails here, so its transaction rolls back. */
  readonly checkpoint: (point: string) => Effect.Effect<void, StorageUnavailable | LeaseLost>
}

/** The run of the current request, when it holds a leased key. */
export const CurrentIdempotentRun = Context.Reference<IdempotentRun | null>(
  "@fatura/application/IdempotencyStore/CurrentIdempotentRun",
  { defaultValue: () => null }
)

/** Records where the current run under an Idempotency-Key got to, in the transaction that got it there; none without. */
export const checkpoint = (point: unknown) =>
  Effect.gen(function* () {
    const run = yield* CurrentIdempotentRun
    if (run !== null) yield* run.checkpoint(JSON.stringify(point))
  })

/**
 * A checkpoint by a holder whose lease another request has taken over: the run stops there, and its request is
 * answered as the one in progress it has become.
 */
export class LeaseLost extends Data.TaggedError("LeaseLost") {}

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
    /**
     * For a request that calls providers, and so must not hold a transaction while it runs: takes the key with a lease
     * until `leaseUntil` (a statement of its own), or tells what became of it as `claim` does; a lease run out is taken
     * over, with the recovery point its holder left.
     */
    readonly lease: (
      scope: IdempotencyScope,
      requestHash: string,
      now: Timestamp.Timestamp,
      leaseUntil: Timestamp.Timestamp
    ) => Effect.Effect<Lease, StorageUnavailable>
    /** Records how far the leased request got; in the transaction of what got it there. False: the lease was lost. */
    readonly checkpoint: (
      scope: IdempotencyScope,
      token: string,
      point: string
    ) => Effect.Effect<boolean, StorageUnavailable>
    /** Stores the leased request's response, if it still holds the lease; false when it does not. */
    readonly finish: (
      scope: IdempotencyScope,
      token: string,
      response: StoredResponse
    ) => Effect.Effect<boolean, StorageUnavailable>
    /**
     * Ends the lease without a response, and a repeat runs at once: anew, with any body, when the request recorded
     * nothing; from its recovery point, with the same body, when it did.
     */
    readonly release: (
      scope: IdempotencyScope,
      token: string,
      now: Timestamp.Timestamp
    ) => Effect.Effect<void, StorageUnavailable>
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
    /**
     * The deployment's key for fingerprints of card data (`IdempotencyFingerprintKey`): the one stored, or `candidate`
     * when none is yet — kept then for good, the same for every process, whichever stored it first.
     */
    readonly fingerprintKey: (candidate: string) => Effect.Effect<string, StorageUnavailable>
  }
>()("@fatura/application/IdempotencyStore") {}
