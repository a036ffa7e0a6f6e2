// Port: withdrawals (SPEC 13.3), each written with the ledger entries of its request or its move, and the claims of the
// sweep that hands them to the rail and asks the rail what became of them.
import type { Company, Invoice, Ledger, Timestamp, Withdrawal } from "@fatura/domain"
import { Context, type Effect, type Option } from "effect"
import type { StorageUnavailable } from "../platform/Failures.js"

export interface WithdrawalFilter {
  readonly companyId: Company.CompanyId
  readonly mode: Invoice.Mode
  /** Only the withdrawals listed after this one: newest first, by creation time, then id. */
  readonly afterId: string | null
  readonly status: Withdrawal.WithdrawalStatus | null
  readonly limit: number
}

/** What a move changes of a withdrawal besides its status, and when the sweep is to look at it next (none: never). */
export interface WithdrawalChange {
  readonly status: Withdrawal.WithdrawalStatus
  readonly movements: ReadonlyArray<Ledger.Entry>
  readonly at: Timestamp.Timestamp
  readonly nextCheckAt: Timestamp.Timestamp | null
  readonly sentAt?: Timestamp.Timestamp
  readonly rail?: "pix" | "ted"
  readonly endToEndId?: string
  readonly paidAt?: Timestamp.Timestamp
  readonly failureReason?: string
}

export class WithdrawalRepository extends Context.Service<
  WithdrawalRepository,
  {
    /** Inserts a pending withdrawal with the entries that draw it, under its company's ledger lock. */
    readonly insert: (
      withdrawal: Withdrawal.Withdrawal,
      movements: ReadonlyArray<Ledger.Entry>
    ) => Effect.Effect<void, StorageUnavailable>
    /** The company's withdrawal of that mode; another company's or mode's is not found. */
    readonly find: (
      companyId: Company.CompanyId,
      mode: Invoice.Mode,
      id: string
    ) => Effect.Effect<Option.Option<Withdrawal.Withdrawal>, StorageUnavailable>
    /** Newest first; one more than `limit` tells whether there is a next page. */
    readonly list: (filter: WithdrawalFilter) => Effect.Effect<ReadonlyArray<Withdrawal.Withdrawal>, StorageUnavailable>
    /** The withdrawal, locked until the enclosing transaction ends; taken after its company's ledger lock. */
    readonly lock: (id: string) => Effect.Effect<Option.Option<Withdrawal.Withdrawal>, StorageUnavailable>
    /**
     * Up to `limit` pending withdrawals, oldest first, locked for the enclosing transaction: one that a cancel (or
     * another sweep) holds is skipped rather than waited for.
     */
    readonly lockPending: (limit: number) => Effect.Effect<ReadonlyArray<Withdrawal.Withdrawal>, StorageUnavailable>
    /**
     * Up to `limit` withdrawals whose next look is due by `now`, oldest first, each put off until `leaseUntil`, so that
     * another sweep leaves them alone while this one asks the rail about them.
     */
    readonly claimDue: (
      now: Timestamp.Timestamp,
      leaseUntil: Timestamp.Timestamp,
      limit: number
    ) => Effect.Effect<ReadonlyArray<Withdrawal.Withdrawal>, StorageUnavailable>
    /** Writes a move of a locked withdrawal with its entries; returns it as it now is. */
    readonly apply: (
      withdrawal: Withdrawal.Withdrawal,
      change: WithdrawalChange
    ) => Effect.Effect<Withdrawal.Withdrawal, StorageUnavailable>
  }
>()("@fatura/application/WithdrawalRepository") {}
