// The PixChargeRemovalRepository port in SQL (migration 0023): a removal per charge, by txid, queued once and done
// once, the pending ones read by their partial index.
import { PixChargeRemovalRepository } from "@fatura/application"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRows } from "./ColumnSchemas.js"
import { storage } from "./Columns.js"
import { InvoiceIdColumn } from "./InvoiceRows.js"

const decodeRemovals = decodeRows(Schema.Struct({ txid: Schema.String, invoice_id: InvoiceIdColumn }))

export const layer = Layer.effect(
  PixChargeRemovalRepository,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    return PixChargeRemovalRepository.of({
      queue: ({ txid, invoiceId }, at) =>
        sql`
          INSERT INTO pix_charge_removals (txid, invoice_id, queued_at) VALUES (${txid}, ${invoiceId}, ${at}::timestamptz)
          ON CONFLICT (txid) DO NOTHING`.pipe(Effect.asVoid, storage),

      pending: (limit) =>
        sql`
          SELECT txid, invoice_id FROM pix_charge_removals
          WHERE done_at IS NULL
          ORDER BY queued_at, txid
          LIMIT ${limit}`.pipe(
          Effect.flatMap(decodeRemovals),
          Effect.map((rows) => rows.map((row) => ({ txid: row.txid, invoiceId: row.invoice_id }))),
          storage
        ),

      markDone: (txid, at) =>
        sql`UPDATE pix_charge_removals SET done_at = ${at}::timestamptz WHERE txid = ${txid} AND done_at IS NULL`.pipe(
          Effect.asVoid,
          storage
        )
    })
  })
)
