// Card tokens, kept by the hash of the token: what may be shown of the card, the acquirer's reference to it, and
// until when and whether it was used.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
      CREATE TABLE card_tokens (
        token_hash text PRIMARY KEY,
        company_id bigint NOT NULL REFERENCES companies (id),
        mode text NOT NULL CHECK (mode IN ('test', 'live')),
        brand text NOT NULL,
        first_digits text NOT NULL CHECK (first_digits ~ '^[0-9]{6}$'),
        last_digits text NOT NULL CHECK (last_digits ~ '^[0-9]{4}$'),
        holder_name text NOT NULL,
        expiration_month integer NOT NULL,
        expiration_year integer NOT NULL,
        acquirer_reference text NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`
})
