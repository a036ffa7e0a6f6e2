// Port: runs an effect in one database transaction, so a state change and its records commit together.
import { Context, type Effect } from "effect"
import type { StorageUnavailable } from "./Failures.js"

export class Transactions extends Context.Service<
  Transactions,
  {
    readonly withTransaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | StorageUnavailable, R>
  }
>()("@fatura/application/Transactions") {}
