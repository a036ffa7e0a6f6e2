// Indexes that serve each filter of the invoice list in its newest-first order.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // The list is newest first by creation time, then id, and each of its filters gets an index in that order: a
  // page reads its own rows and stops, instead of walking a company's whole history for a filter that matches
  // few of its invoices or none (an external_ref, a recent created_gte, an old created_lte, a rare status).
  yield* sql`CREATE INDEX invoices_company_mode_created ON invoices (company_id, mode, created_at, id)`
  yield* sql`CREATE INDEX invoices_company_mode_status ON invoices (company_id, mode, status, created_at, id)`
  yield* sql`CREATE INDEX invoices_company_mode_method ON invoices (company_id, mode, method, created_at, id)`
  yield* sql`
      CREATE INDEX invoices_company_mode_external_ref ON invoices (company_id, mode, external_ref, created_at, id)
      WHERE external_ref IS NOT NULL`
  // Its one reader was the list in id order; the creation-time index serves every (company, mode) lookup.
  yield* sql`DROP INDEX invoices_company_mode`
})
