// Port: a company's ledger entries as its statement lists them (SPEC 13.2). The entries themselves are written with
// the moves that make them (InvoiceRepository); this port only reads them.
import type { Cents, Company, Invoice, Ledger, PaymentMethod, Timestamp } from "@fatura/domain"
import { Context, type Effect } from "effect"
import type { StorageUnavailable } from "../platform/Failures.js"

export interface BalanceOperation {
  readonly id: number
  readonly type: Ledger.EntryType
  readonly direction: Ledger.Direction
  readonly amount: Cents.Cents
  readonly balance: PaymentMethod.BalanceKind
  readonly bucket: Ledger.Bucket
  /** The invoice it belongs to, by its secureId; none for a withdrawal's. */
  readonly invoiceId: Invoice.SecureId | null
  /** The withdrawal it belongs to; none for an invoice's. */
  readonly withdrawalId: string | null
  readonly createdAt: Timestamp.Timestamp
}

export interface OperationFilter {
  readonly companyId: Company.CompanyId
  readonly mode: Invoice.Mode
  /** Only entries recorded before this one. */
  readonly beforeId: number | null
  readonly createdGte: Timestamp.Timestamp | null
  readonly createdLte: Timestamp.Timestamp | null
  readonly balance: PaymentMethod.BalanceKind | null
  readonly type: Ledger.EntryType | null
  readonly limit: number
}

export class LedgerEntryRepository extends Context.Service<
  LedgerEntryRepository,
  {
    /** Newest first, in the order they were recorded; one more than `limit` tells whether there is a next page. */
    readonly operations: (filter: OperationFilter) => Effect.Effect<ReadonlyArray<BalanceOperation>, StorageUnavailable>
    /** Whether the company has an entry of `mode` with that id. */
    readonly hasOperation: (
      companyId: Company.CompanyId,
      mode: Invoice.Mode,
      id: number
    ) => Effect.Effect<boolean, StorageUnavailable>
  }
>()("@fatura/application/LedgerEntryRepository") {}
