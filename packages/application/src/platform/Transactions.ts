// Port: runs an effect in one database transaction, so a state change and its records commit together.
import { Context, type Effect } from "effect"
import type { StorageUnavailable } from "./Failures.js"

export class Transactions extends Context.Service<
  Transactions,
  {
    /**
     * Runs `effect` in a transaction; inside another one, in a savepoint of it. When the database gives the
     * transaction up for another's sake (a deadlock, a serialization failure), the outermost transaction runs its
     * whole body again, a few times; if it still cannot commit, it fails with `StorageUnavailable`. A body must
     * therefore be repeatable, and does nothing outside the database (see `external`).
     */
    readonly withTransaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | StorageUnavailable, R>
    /**
     * Runs `effect`, which acts outside the database (charges a card, asks a provider for a charge), outside any
     * transaction: no lock is held and no connection kept while a provider answers. Called inside a transaction,
     * it dies without running `effect`.
     */
    readonly external: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  }
>()("@fatura/application/Transactions") {}
