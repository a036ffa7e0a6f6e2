// Card charges answered after their invoice stopped waiting: they pay nothing, and an approved one is given back.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // A charge answered when its invoice was no longer pending pays nothing (`late`); one the acquirer approved is
  // given back to the card, recorded `requested` before the acquirer is asked and closed with how it was done.
  yield* sql`ALTER TABLE card_charges DROP CONSTRAINT card_charges_state_check`
  yield* sql`
      ALTER TABLE card_charges
        ADD CONSTRAINT card_charges_state_check
          CHECK (state IN ('requested', 'approved', 'refused', 'void', 'late')),
        ADD COLUMN reversal text CHECK (reversal IN ('requested', 'voided', 'refunded')),
        ADD COLUMN reversed_at timestamptz,
        ADD CONSTRAINT card_charges_reversal_of_late CHECK (reversal IS NULL OR state = 'late')`
  yield* sql`CREATE INDEX card_charges_reversing ON card_charges (settled_at) WHERE reversal = 'requested'`
})
