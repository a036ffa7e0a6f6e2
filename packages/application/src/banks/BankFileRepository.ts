// Port: the files exchanged with the bank, each kept as it was (SPEC 15.3). A remessa is recorded with its content
// before it is uploaded, under a name made of a sequence number that never repeats, and marked sent once the bank has
// it; a retorno is recorded when it is read, once, so that one read twice changes nothing.
import type { Timestamp } from "@fatura/domain"
import { Context, type Effect } from "effect"
import type { StorageUnavailable } from "../platform/Failures.js"

/** What a file is for: registering boletos, paying withdrawals, or the bank's report of a file it refused. */
export type BankService = "cobranca" | "pagamentos" | "refusal"

export interface Remessa {
  readonly name: string
  readonly service: BankService
  readonly sequence: number
  readonly content: string
  readonly createdAt: Timestamp.Timestamp
}

export class BankFileRepository extends Context.Service<
  BankFileRepository,
  {
    /** The next number of a remessa: from a sequence no rollback takes back, so none is ever used twice. */
    readonly nextSequence: Effect.Effect<number, StorageUnavailable>
    /** Records a remessa as written, before it is uploaded. */
    readonly recordRemessa: (remessa: Remessa) => Effect.Effect<void, StorageUnavailable>
    /** The remessas written and not yet known to be at the bank, oldest first. */
    readonly unsent: Effect.Effect<ReadonlyArray<Remessa>, StorageUnavailable>
    /** The bank has `name`: uploaded (or found there, uploaded by a process that died before saying so). */
    readonly markSent: (name: string, at: Timestamp.Timestamp) => Effect.Effect<void, StorageUnavailable>
    /** The bank refused remessa `name` whole. */
    readonly markRefused: (name: string, at: Timestamp.Timestamp) => Effect.Effect<void, StorageUnavailable>
    /** Whether a file of the bank's was read already. */
    readonly isRead: (name: string) => Effect.Effect<boolean, StorageUnavailable>
    /**
     * Records a file of the bank's as read, in the transaction that acts on it; false when it was read already,
     * and then nothing of it is to be acted on again.
     */
    readonly recordRead: (
      file: { readonly name: string; readonly service: BankService; readonly content: string },
      at: Timestamp.Timestamp
    ) => Effect.Effect<boolean, StorageUnavailable>
  }
>()("@fatura/application/BankFileRepository") {}
