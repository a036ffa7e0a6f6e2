// The current instant in the contract's timestamp form, read from Effect's Clock so tests can move time.
import { Timestamp } from "@fatura/domain"
import { Clock, Effect } from "effect"

export const now: Effect.Effect<Timestamp.Timestamp> = Effect.map(Clock.currentTimeNanos, Timestamp.fromEpochNanos)
