// The BoletoRegistrationRepository port in memory: a registration per boleto a bank registers, keyed by its invoice;
// the invoice reads its status from it, as the SQL adapter joins it. A withdrawn registration keeps its row, with its
// write-off when it had been sent.

import type { Invoice } from "@fatura/domain"
import { Effect, Layer, Option } from "effect"
import { type BoletoRegistrationRecord, BoletoRegistrationRepository } from "../boletos/BoletoRegistrationRepository.js"
import type { BoletoRegistrationRow } from "./InMemoryBankTables.js"
import { InMemoryDatabase, violated } from "./InMemoryDatabase.js"
import { put, toInvoice } from "./InMemoryTables.js"

const toRecord = (row: BoletoRegistrationRow): BoletoRegistrationRecord => ({
  invoiceId: row.invoiceId,
  ourNumber: row.ourNumber,
  status: row.status,
  remessa: row.remessa,
  paidAmount: row.paidAmount
})

export const layer = Layer.effect(
  BoletoRegistrationRepository,
  Effect.gen(function* () {
    const database = yield* InMemoryDatabase

    const update = (
      matches: (row: BoletoRegistrationRow) => boolean,
      change: (row: BoletoRegistrationRow) => BoletoRegistrationRow
    ) =>
      database.statement(
        Effect.gen(function* () {
          const rows = yield* database.read((tables) => [...tables.boletoRegistrations.values()].filter(matches))
          for (const row of rows) {
            yield* database.lock(`boleto registration ${row.invoiceId}`)
            yield* database.write(put("boletoRegistrations", row.invoiceId, change(row)))
          }
          return rows.length
        })
      )

    /** The invoices of up to `limit` registrations that `matches` picks, oldest first. */
    const invoicesOf = (matches: (row: BoletoRegistrationRow) => boolean, limit: number) =>
      database.read(
        (tables): ReadonlyArray<Invoice.Invoice> =>
          [...tables.boletoRegistrations.values()]
            .filter(matches)
            .sort((a, b) => a.invoiceId - b.invoiceId)
            .slice(0, limit)
            .map((row) => toInvoice(tables, tables.invoices.get(row.invoiceId)!))
      )

    return BoletoRegistrationRepository.of({
      queue: (invoice, at) =>
        database.statement(
          Effect.gen(function* () {
            const ourNumber = invoice.boleto?.ourNumber ?? ""
            const clash = yield* database.read((tables) =>
              tables.boletoRegistrations.has(invoice.id)
                ? "boleto_registrations_pkey"
                : [...tables.boletoRegistrations.values()].some((row) => row.ourNumber === ourNumber)
                  ? "boleto_registrations_our_number_key"
                  : !tables.invoices.has(invoice.id)
                    ? "boleto_registrations_invoice_id_fkey"
                    : undefined
            )
            if (clash !== undefined) return yield* violated(clash, `the boleto of invoice ${invoice.id} is queued`)
            yield* database.write(
              put("boletoRegistrations", invoice.id, {
                invoiceId: invoice.id,
                ourNumber,
                status: "pending",
                remessa: null,
                paidAmount: null,
                withdrawnAt: null,
                writeOffQueued: false,
                writeOffRemessa: null,
                createdAt: at,
                updatedAt: at
              })
            )
          })
        ),

      queued: (limit) =>
        invoicesOf((row) => row.status === "pending" && row.remessa === null && row.withdrawnAt === null, limit),

      queuedWriteOffs: (limit) => invoicesOf((row) => row.writeOffQueued && row.writeOffRemessa === null, limit),

      assignWriteOffs: (invoiceIds, remessa, at) =>
        Effect.asVoid(
          update(
            (row) => invoiceIds.includes(row.invoiceId),
            (row) => ({ ...row, writeOffRemessa: remessa, updatedAt: at })
          )
        ),

      recordBankPayment: (invoiceId, amount, at) =>
        Effect.map(
          update(
            (row) => row.invoiceId === invoiceId && row.paidAmount === null,
            (row) => ({ ...row, paidAmount: amount, updatedAt: at })
          ),
          (changed) => changed > 0
        ),

      withdraw: (invoiceId, at) =>
        Effect.asVoid(
          update(
            (row) => row.invoiceId === invoiceId && row.withdrawnAt === null,
            (row) => ({ ...row, withdrawnAt: at, writeOffQueued: row.remessa !== null, updatedAt: at })
          )
        ),

      assign: (invoiceIds, remessa, at) =>
        Effect.asVoid(
          update(
            (row) => invoiceIds.includes(row.invoiceId),
            (row) => ({ ...row, remessa, updatedAt: at })
          )
        ),

      // A withdrawn registration the bank never took has nothing to write off; a write-off goes in the next remessa.
      release: (remessa, at) =>
        Effect.map(
          Effect.all([
            update(
              (row) => row.remessa === remessa && row.status === "pending",
              (row) => ({ ...row, remessa: null, writeOffQueued: false, writeOffRemessa: null, updatedAt: at })
            ),
            update(
              (row) => row.writeOffRemessa === remessa,
              (row) => ({ ...row, writeOffRemessa: null, updatedAt: at })
            )
          ]),
          ([registrations, writeOffs]) => registrations + writeOffs
        ),

      findByOurNumber: (ourNumber) =>
        database.read((tables) =>
          Option.map(
            Option.fromNullishOr([...tables.boletoRegistrations.values()].find((row) => row.ourNumber === ourNumber)),
            toRecord
          )
        ),

      set: (invoiceId, status, at) =>
        Effect.asVoid(
          update(
            (row) => row.invoiceId === invoiceId,
            (row) => ({ ...row, status, updatedAt: at })
          )
        )
    })
  })
)
