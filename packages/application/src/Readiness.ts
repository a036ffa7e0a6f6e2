// Port: whether the database answers, for the readiness probe (SPEC 11.1).
import { Context, type Effect } from "effect"
import type { StorageUnavailable } from "./Failures.js"

export class Readiness extends Context.Service<
  Readiness,
  { readonly check: Effect.Effect<void, StorageUnavailable> }
>()("@fatura/application/Readiness") {}
