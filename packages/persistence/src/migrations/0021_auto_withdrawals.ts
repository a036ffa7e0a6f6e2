// Automatic withdrawals (SPEC 13.4): a company's schedule, off until the CLI sets one, and the last day the sweep
// looked at it, so that it is taken once a day.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
      ALTER TABLE companies
        ADD COLUMN auto_withdrawal text NOT NULL DEFAULT 'off'
          CHECK (auto_withdrawal ~ '^(off|daily|weekly:[1-5]|monthly:([1-9]|1[0-9]|2[0-8]))$'),
        ADD COLUMN auto_withdrawal_checked_on date`
  yield* sql`CREATE INDEX companies_auto_withdrawal ON companies (id) WHERE auto_withdrawal <> 'off'`
})
