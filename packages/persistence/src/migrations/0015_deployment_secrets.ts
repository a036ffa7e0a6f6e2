// Secrets of the whole deployment, shared by every process that runs on this database.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export const migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // Secrets of the whole deployment, made once by whichever process needs one first and shared by all: the key of
  // the fingerprints by which a repeated request's card data is compared (`IdempotencyStore.fingerprintKey`).
  yield* sql`
      CREATE TABLE deployment_secrets (
        name text PRIMARY KEY,
        value text NOT NULL
      )`
})
