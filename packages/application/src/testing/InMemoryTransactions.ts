// The Transactions port over the in-memory database: a transaction commits its writes together or not at all,
// a nested one is a savepoint, and one that gave way in a deadlock runs again unless it acted outside.
import { Effect, Layer } from "effect"
import { Transactions } from "../platform/Transactions.js"
import { InMemoryDatabase } from "./InMemoryDatabase.js"

export const layer = Layer.effect(
  Transactions,
  Effect.map(Effect.service(InMemoryDatabase), (database) =>
    Transactions.of({ withTransaction: database.withTransaction, external: database.external })
  )
)
