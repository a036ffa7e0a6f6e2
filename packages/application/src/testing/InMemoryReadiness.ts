// The Readiness port in memory: the database is always there, as one connection of this process.
import { Effect, Layer } from "effect"
import { Readiness } from "../platform/Readiness.js"

export const layer = Layer.succeed(
  Readiness,
  Readiness.of({ check: Effect.void, connections: Effect.succeed({ open: 1, active: null, max: 1 }) })
)
