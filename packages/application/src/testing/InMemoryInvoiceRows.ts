// What the in-memory ports that write invoices share: the invoice's row lock, the checks of the invoices table, ledger
// entries given their ids, and the change of a locked invoice's row.
import type { Invoice, Receivable, Timestamp } from "@fatura/domain"
import { Effect, Option } from "effect"
import type { NewMovement } from "../invoices/InvoiceRepository.js"
import { type InMemoryDatabase, violated } from "./InMemoryDatabase.js"
import { type InvoiceRow, put, type ReceivableRow, toInvoice } from "./InMemoryTables.js"

export const invoiceLock = (id: Invoice.InvoiceId) => `invoices ${id}`

/** The checks of the invoices table that a use case could break. */
export const checkInvoice = (row: Pick<InvoiceRow, "amount" | "installments" | "refundedAmount">) => {
  if (!(row.amount > 0)) return violated("invoices_amount_check", `amount ${row.amount} is not positive`)
  if (!(row.installments >= 1 && row.installments <= 12)) {
    return violated("invoices_installments_check", `installments ${row.installments} are not 1 to 12`)
  }
  if (!(row.refundedAmount >= 0 && row.refundedAmount <= row.amount)) {
    return violated("invoices_check", `refunded ${row.refundedAmount} of ${row.amount}`)
  }
  return Effect.void
}

export const make = (database: InMemoryDatabase["Service"]) => {
  const findById = (id: Invoice.InvoiceId) =>
    database.read((tables) =>
      Option.map(Option.fromNullishOr(tables.invoices.get(id)), (row) => toInvoice(tables, row))
    )

  /** Ledger entries with their ids, as of `at`. */
  const ledgerEntries = (movements: ReadonlyArray<NewMovement>, at: Timestamp.Timestamp) =>
    Effect.forEach(movements, (movement) =>
      movement.amount < 0
        ? violated("ledger_entries_amount_check", `a ledger entry of ${movement.amount}`)
        : Effect.map(database.nextval("ledgerEntries"), (id): Invoice.Movement => ({ ...movement, id, createdAt: at }))
    )

  /** Receivables with their ids, as of `at`. */
  const receivableRows = (receivables: ReadonlyArray<Receivable.NewReceivable>, at: Timestamp.Timestamp) =>
    Effect.forEach(receivables, (receivable) =>
      Effect.map(
        database.nextval("receivables"),
        (id): ReceivableRow => ({ ...receivable, id, anticipationFee: 0, createdAt: at, updatedAt: at })
      )
    )

  /** Changes a locked invoice's row and returns the invoice as it now is. */
  const update = (invoice: Invoice.Invoice, change: (row: InvoiceRow) => Effect.Effect<InvoiceRow>) =>
    database.statement(
      Effect.gen(function* () {
        yield* database.lock(invoiceLock(invoice.id))
        const row = (yield* database.read((tables) => tables.invoices.get(invoice.id)))!
        const changed = yield* change(row)
        yield* checkInvoice(changed)
        yield* database.write(put("invoices", invoice.id, changed))
        return Option.getOrThrow(yield* findById(invoice.id))
      })
    )

  return { findById, ledgerEntries, receivableRows, update }
}
