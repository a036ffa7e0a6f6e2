// The ReceivableRepository port in memory: the receivables each invoice's row holds, with the invoice they belong to.
// A sweep skips the receivables of an invoice a move holds, as the SQL adapter does.
import type { Invoice } from "@fatura/domain"
import { Effect, Layer, Option } from "effect"
import {
  type OwnedReceivable,
  ReceivableRepository,
  type ScheduledReceivable
} from "../receivables/ReceivableRepository.js"
import { InMemoryDatabase } from "./InMemoryDatabase.js"
import { invoiceLock, make as invoiceRows } from "./InMemoryInvoiceRows.js"
import type { InvoiceRow, ReceivableRow, Tables } from "./InMemoryTables.js"

const owned = (invoice: InvoiceRow, { anticipationFee: _, createdAt: __, updatedAt: ___, ...row }: ReceivableRow) =>
  ({ ...row, invoiceId: invoice.id, companyId: invoice.companyId, mode: invoice.mode }) satisfies OwnedReceivable

/** The schedule's order: by payment date, then id. */
const bySchedule = (a: { paymentDate: string; id: number }, b: { paymentDate: string; id: number }) =>
  a.paymentDate === b.paymentDate ? a.id - b.id : a.paymentDate < b.paymentDate ? -1 : 1

const scheduleOf = (tables: Tables, companyId: number, mode: Invoice.Mode): ReadonlyArray<ScheduledReceivable> =>
  [...tables.invoices.values()]
    .filter((invoice) => invoice.companyId === companyId && invoice.mode === mode)
    .flatMap((invoice) => invoice.receivables.map((row) => ({ ...row, invoiceId: invoice.secureId })))
    .sort(bySchedule)

export const layer = Layer.effect(
  ReceivableRepository,
  Effect.gen(function* () {
    const database = yield* InMemoryDatabase
    const { ledgerEntries, update, findById } = invoiceRows(database)

    return ReceivableRepository.of({
      ofInvoice: (invoiceId) =>
        database.read((tables) => {
          const invoice = tables.invoices.get(invoiceId)
          return invoice === undefined
            ? []
            : [...invoice.receivables].sort((a, b) => a.id - b.id).map((row) => owned(invoice, row))
        }),

      list: (filter) =>
        database.read((tables) => {
          const schedule = scheduleOf(tables, filter.companyId, filter.mode)
          const cursor = schedule.find((receivable) => receivable.id === filter.afterId)
          return schedule
            .filter(
              (receivable) =>
                (cursor === undefined || bySchedule(receivable, cursor) > 0) &&
                (filter.status === null || receivable.status === filter.status) &&
                (filter.invoiceId === null || receivable.invoiceId === filter.invoiceId) &&
                (filter.paymentDateGte === null || receivable.paymentDate >= filter.paymentDateGte) &&
                (filter.paymentDateLte === null || receivable.paymentDate <= filter.paymentDateLte)
            )
            .slice(0, filter.limit + 1)
        }),

      has: (companyId, mode, id) =>
        database.read((tables) => scheduleOf(tables, companyId, mode).some((receivable) => receivable.id === id)),

      lockDue: (today, limit) =>
        database.statement(
          Effect.gen(function* () {
            const due = yield* database.read((tables) =>
              [...tables.invoices.values()]
                .flatMap((invoice) =>
                  invoice.receivables
                    .filter((row) => row.status === "waiting_funds" && row.paymentDate <= today)
                    .map((row) => owned(invoice, row))
                )
                .sort(bySchedule)
            )
            const locked: Array<OwnedReceivable> = []
            for (const receivable of due) {
              if (locked.length === limit) break
              if (yield* database.tryLock(invoiceLock(receivable.invoiceId))) locked.push(receivable)
            }
            return locked
          })
        ),

      settle: (settlements, at) =>
        Effect.forEach(
          settlements,
          ({ receivable, paymentDate, movements }) =>
            Effect.gen(function* () {
              const invoice = Option.getOrThrow(yield* findById(receivable.invoiceId))
              const stored = yield* database.read((tables) =>
                tables.invoices.get(invoice.id)!.receivables.find((row) => row.id === receivable.id)
              )
              // A receivable no longer waiting was settled already: its money moved once.
              if (stored?.status !== "waiting_funds") return
              yield* update(invoice, (row) =>
                Effect.map(ledgerEntries(movements, at), (entries) => ({
                  ...row,
                  movements: [...row.movements, ...entries],
                  receivables: row.receivables.map((stored) =>
                    stored.id === receivable.id
                      ? { ...stored, status: "available" as const, paymentDate, updatedAt: at }
                      : stored
                  )
                }))
              )
            }),
          { discard: true }
        )
    })
  })
)
