// An embedded Postgres in memory, queried through effect/sql as any Postgres would be: a table, a batch insert, a
// transaction that fails and leaves nothing behind, and an aggregate.
import { PgliteClient } from "@fatura/sql-pglite"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

const program = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE invoices (id serial PRIMARY KEY, amount bigint NOT NULL, paid boolean NOT NULL)`
  yield* sql`INSERT INTO invoices ${sql.insert([
    { amount: 12_345, paid: true },
    { amount: 990, paid: false },
    { amount: 50_000, paid: true }
  ])}`

  // Everything inside the transaction rolls back with its failure.
  const attempt = yield* sql
    .withTransaction(
      Effect.gen(function* () {
        yield* sql`UPDATE invoices SET paid = true`
        return yield* Effect.fail("the payment provider said no")
      })
    )
    .pipe(Effect.flip)
  console.log(`rolled back: ${attempt}`)

  // count(*) is int8, read as a bigint; sum() of a bigint is numeric, read as a string: no precision is lost.
  const [totals] = yield* sql<{ readonly paid: bigint; readonly cents: string }>`
    SELECT count(*) AS paid, sum(amount) AS cents FROM invoices WHERE paid`
  console.log(`${totals?.paid} paid invoices, ${totals?.cents} cents`)
})

// No `dataDir`: the database lives in memory and goes with the layer's scope.
Effect.runPromise(program.pipe(Effect.provide(PgliteClient.layer({}))))
