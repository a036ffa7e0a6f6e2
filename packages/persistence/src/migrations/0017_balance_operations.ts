// The statement (SPEC 13.2): each ledger entry says which bucket of its balance it is in, and a company's entries of
// one mode are read newest first.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // Every entry written until now was available the moment it was written.
  yield* sql`
      ALTER TABLE ledger_entries
        ADD COLUMN bucket text NOT NULL DEFAULT 'available' CHECK (bucket IN ('available', 'waiting'))`
  yield* sql`CREATE INDEX ledger_entries_statement ON ledger_entries (company_id, mode, id DESC)`
})
