// The WebhookEndpointRepository port in SQL. Adds for one company take its row's lock, so that the count they check
// is the count they add to; a deleted endpoint keeps its row, which the deliveries made for it name.
import { type Endpoint, WebhookEndpointRepository } from "@fatura/application"
import { Invoice, Timestamp, WebhookEndpoint } from "@fatura/domain"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRows, Json } from "./ColumnSchemas.js"
import { storage } from "./Columns.js"
import { CompanyIdColumn } from "./InvoiceRows.js"

const EndpointRow = Schema.Struct({
  id: Schema.String,
  company_id: CompanyIdColumn,
  mode: Invoice.Mode,
  url: Schema.String,
  events: Json(Schema.Array(WebhookEndpoint.EventPattern)),
  created_at: Timestamp.Timestamp
})

const toEndpoint = (row: typeof EndpointRow.Type): Endpoint => ({
  id: row.id,
  companyId: row.company_id,
  mode: row.mode,
  url: row.url,
  events: row.events,
  createdAt: row.created_at
})

const decodeEndpoints = decodeRows(EndpointRow)

export const layer = Layer.effect(
  WebhookEndpointRepository,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    return WebhookEndpointRepository.of({
      add: (endpoint, atMost) =>
        Effect.gen(function* () {
          // NO KEY UPDATE leaves the inserts that reference the company (its invoices, its events) unblocked.
          yield* sql`SELECT id FROM companies WHERE id = ${endpoint.companyId} FOR NO KEY UPDATE`
          // Arrays travel as JSON text: the drivers agree on that, not on array parameters.
          const added = yield* sql`
            INSERT INTO webhook_endpoints (id, company_id, mode, url, events, created_at)
            SELECT ${endpoint.id}, ${endpoint.companyId}, ${endpoint.mode}, ${endpoint.url},
                   ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(endpoint.events)}::jsonb)),
                   ${endpoint.createdAt}::timestamptz
            WHERE (SELECT count(*) FROM webhook_endpoints
                   WHERE company_id = ${endpoint.companyId} AND mode = ${endpoint.mode} AND deleted_at IS NULL)
                  < ${atMost}
            RETURNING id`
          return added.length > 0
        }).pipe(sql.withTransaction, storage),

      list: (companyId, mode) =>
        sql`
          SELECT id, company_id, mode, url, to_json(events) AS events, fatura_ts(created_at) AS created_at
          FROM webhook_endpoints
          WHERE company_id = ${companyId} AND mode = ${mode} AND deleted_at IS NULL
          ORDER BY created_at, id`.pipe(
          Effect.flatMap(decodeEndpoints),
          Effect.map((rows) => rows.map(toEndpoint)),
          storage
        ),

      remove: (companyId, mode, endpointId, at) =>
        sql`
          UPDATE webhook_endpoints SET deleted_at = ${at}::timestamptz
          WHERE id = ${endpointId} AND company_id = ${companyId} AND mode = ${mode} AND deleted_at IS NULL
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          storage
        )
    })
  })
)
