// The BoletoRegistrationRepository port in memory: a registration per boleto a bank registers, keyed by its invoice;
// the invoice reads its status from it, as the SQL adapter joins it.
import { Effect, Layer, Option } from "effect"
import { BoletoRegistrationRepository } from "../boletos/BoletoRegistrationRepository.js"
import type { BoletoRegistrationRow } from "./InMemoryBankTables.js"
import { InMemoryDatabase, violated } from "./InMemoryDatabase.js"
import { put, toInvoice } from "./InMemoryTables.js"

const toRecord = ({ createdAt: _, updatedAt: __, ...record }: BoletoRegistrationRow) => record

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
                createdAt: at,
                updatedAt: at
              })
            )
          })
        ),

      queued: (limit) =>
        database.read((tables) =>
          [...tables.boletoRegistrations.values()]
            .filter((row) => row.status === "pending" && row.remessa === null)
            .sort((a, b) => a.invoiceId - b.invoiceId)
            .slice(0, limit)
            .map((row) => toInvoice(tables, tables.invoices.get(row.invoiceId)!))
        ),

      assign: (invoiceIds, remessa, at) =>
        Effect.asVoid(
          update(
            (row) => invoiceIds.includes(row.invoiceId),
            (row) => ({ ...row, remessa, updatedAt: at })
          )
        ),

      release: (remessa, at) =>
        update(
          (row) => row.remessa === remessa && row.status === "pending",
          (row) => ({ ...row, remessa: null, updatedAt: at })
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
