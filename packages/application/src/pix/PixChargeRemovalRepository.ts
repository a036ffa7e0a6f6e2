// Port: the pix charges to remove at the provider (SPEC 15.1): the charge with a due date of a hybrid boleto whose
// invoice left `pending` otherwise than by its pix (paid at the bank, rejected or written off by it) must no longer be
// paid. Queued in the transaction that moves the invoice, removed by the sweep with nothing held, once.
import type { Invoice, Timestamp } from "@fatura/domain"
import { Context, type Effect } from "effect"
import type { StorageUnavailable } from "../platform/Failures.js"

export interface PixChargeRemoval {
  readonly txid: string
  readonly invoiceId: Invoice.InvoiceId
}

export class PixChargeRemovalRepository extends Context.Service<
  PixChargeRemovalRepository,
  {
    /** Queues the removal of the charge `txid` of `invoiceId` (once: queuing it again changes nothing). */
    readonly queue: (removal: PixChargeRemoval, at: Timestamp.Timestamp) => Effect.Effect<void, StorageUnavailable>
    /** Up to `limit` removals not done yet, oldest first. */
    readonly pending: (limit: number) => Effect.Effect<ReadonlyArray<PixChargeRemoval>, StorageUnavailable>
    /** Records the removal of `txid` done (or moot: the provider has no such charge to remove). */
    readonly markDone: (txid: string, at: Timestamp.Timestamp) => Effect.Effect<void, StorageUnavailable>
  }
>()("@fatura/application/PixChargeRemovalRepository") {}
