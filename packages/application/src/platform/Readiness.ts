// Port: whether the database answers, for the readiness probe, and how many connections this process holds, for
// `/metrics` (SPEC 11.1).
import { Context, type Effect } from "effect"
import type { StorageUnavailable } from "./Failures.js"

export interface ConnectionUse {
  /** Connections this process has open to the database. */
  readonly open: number
  /** Of those, the ones running a statement (besides the one asking), when the database can tell. */
  readonly active: number | null
  /** The most this process opens. */
  readonly max: number
}

export class Readiness extends Context.Service<
  Readiness,
  {
    readonly check: Effect.Effect<void, StorageUnavailable>
    readonly connections: Effect.Effect<ConnectionUse, StorageUnavailable>
  }
>()("@fatura/application/Readiness") {}
