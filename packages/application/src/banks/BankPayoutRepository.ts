// Port: the payments a bank makes for withdrawals through its files (SPEC 15.2). A withdrawal handed to such a rail
// is queued as an attempt under a reference of 20 characters that never repeats (what the files name it by), taken
// into a payments remessa, and settled as the bank's retorno says; a pix the receiving institution cannot take is
// tried again as a TED, a new attempt.
import type { Timestamp, Withdrawal } from "@fatura/domain"
import { Context, type Effect, type Option } from "effect"
import type { StorageUnavailable } from "../platform/Failures.js"

export type PayoutForm = "pix" | "ted" | "creditInAccount"

export type PayoutStatus = "queued" | "accepted" | "paid" | "failed" | "returned"

export interface BankPayout {
  /** `WD` and 18 digits: how the files name this attempt. */
  readonly reference: string
  readonly withdrawalId: string
  readonly attempt: number
  readonly form: PayoutForm
  readonly amount: number
  readonly destination: Withdrawal.Destination
  readonly status: PayoutStatus
  /** The remessa that carries it; null while it waits for one. */
  readonly remessa: string | null
  /** What the bank said last: codes of FEBRABAN's table G059. */
  readonly occurrences: ReadonlyArray<string>
  readonly endToEndId: string | null
  readonly paidOn: string | null
  /** When it last changed: when the bank's last word on it was read. */
  readonly updatedAt: Timestamp.Timestamp
}

export interface PayoutChange {
  readonly status: PayoutStatus
  readonly occurrences: ReadonlyArray<string>
  readonly endToEndId?: string | null
  readonly paidOn?: string | null
}

export class BankPayoutRepository extends Context.Service<
  BankPayoutRepository,
  {
    /**
     * The withdrawal's latest attempt; its first, queued, when it has none yet: handing a withdrawal over again
     * queues nothing more.
     */
    readonly enqueue: (
      payout: {
        readonly withdrawalId: string
        readonly form: PayoutForm
        readonly amount: number
        readonly destination: Withdrawal.Destination
      },
      at: Timestamp.Timestamp
    ) => Effect.Effect<BankPayout, StorageUnavailable>
    readonly latest: (withdrawalId: string) => Effect.Effect<Option.Option<BankPayout>, StorageUnavailable>
    /** Up to `limit` attempts waiting for a remessa, oldest first. */
    readonly queued: (limit: number) => Effect.Effect<ReadonlyArray<BankPayout>, StorageUnavailable>
    readonly assign: (
      references: ReadonlyArray<string>,
      remessa: string,
      at: Timestamp.Timestamp
    ) => Effect.Effect<void, StorageUnavailable>
    /** Puts back in the queue the attempts of a remessa the bank refused whole. */
    readonly release: (remessa: string, at: Timestamp.Timestamp) => Effect.Effect<number, StorageUnavailable>
    readonly findByReference: (reference: string) => Effect.Effect<Option.Option<BankPayout>, StorageUnavailable>
    readonly settle: (
      reference: string,
      change: PayoutChange,
      at: Timestamp.Timestamp
    ) => Effect.Effect<void, StorageUnavailable>
    /** A new attempt of the withdrawal by `form`, queued. */
    readonly retry: (
      withdrawalId: string,
      form: PayoutForm,
      at: Timestamp.Timestamp
    ) => Effect.Effect<BankPayout, StorageUnavailable>
  }
>()("@fatura/application/BankPayoutRepository") {}
