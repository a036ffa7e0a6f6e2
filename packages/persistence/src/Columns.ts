// Reading column values the same way whichever driver returned them, and the one place where a database failure
// is classified: the application's `StorageUnavailable` (connection lost), a contention that running the transaction
// again may resolve, or a defect (a bug).
import { StorageUnavailable } from "@fatura/application"
import type { Timestamp } from "@fatura/domain"
import { Effect } from "effect"
import type { SqlError } from "effect/sql/SqlError"

/** int8 and numeric columns arrive as bigint, string or number depending on the driver. */
export const int = (value: unknown): number => (typeof value === "number" ? value : Number(value))

export const nullableInt = (value: unknown): number | null => (value === null ? null : int(value))

/** Columns selected through `fatura_ts(...)` arrive in the contract's timestamp form. */
export const timestamp = (value: unknown): Timestamp.Timestamp => value as Timestamp.Timestamp

export const nullableTimestamp = (value: unknown): Timestamp.Timestamp | null =>
  value === null ? null : (value as Timestamp.Timestamp)

export const json = <A>(value: unknown): A => (typeof value === "string" ? JSON.parse(value) : value) as A

export const text = (value: unknown): string => value as string

export const nullableText = (value: unknown): string | null => (value === null ? null : (value as string))

/**
 * SQLSTATEs of a server that is going away or not there yet: shutting down (57P01, 57P02), starting up or
 * shutting down while we connect (57P03), out of connections (53300). Drivers report them as unknown errors.
 */
const unavailableStates = new Set(["57P01", "57P02", "57P03", "53300"])

const sqlStateOf = (cause: unknown): unknown =>
  typeof cause === "object" && cause !== null && "code" in cause ? cause.code : undefined

/** The database is unreachable or going away: the request may succeed later, it is not a bug. */
export const isUnavailable = (error: SqlError): boolean =>
  error.reason._tag === "ConnectionError" || unavailableStates.has(String(sqlStateOf(error.reason.cause)))

/**
 * SQLSTATEs of a transaction the database gave up on for another one's sake: serialization_failure (40001),
 * deadlock_detected (40P01). It wrote nothing; the same transaction run again may well commit.
 */
const contentionStates = new Set(["40001", "40P01"])

/** The database chose this transaction as the loser of a conflict: running it again is the remedy. */
export const isContention = (error: SqlError): boolean => contentionStates.has(String(sqlStateOf(error.reason.cause)))

/** The repositories' error channel: only a lost database is an expected failure. */
export const storage = <A, R>(effect: Effect.Effect<A, SqlError, R>): Effect.Effect<A, StorageUnavailable, R> =>
  Effect.catchTag(effect, "SqlError", (error) =>
    isUnavailable(error)
      ? Effect.fail(new StorageUnavailable({ message: "the database is unavailable" }))
      : Effect.die(error)
  )
