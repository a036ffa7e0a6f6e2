// The bank of a company's own bank account by its COMPE code (SPEC 5.3, 12.2): where withdrawals go.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // Empty while the company has no bank account: none was ever set until now.
  yield* sql`ALTER TABLE companies ADD COLUMN bank_code text NOT NULL DEFAULT ''`
})
