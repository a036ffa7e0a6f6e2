// Instants as the contract writes them: ISO 8601 UTC with exactly six fractional digits and `Z`.
// Kept as strings so microseconds survive the trip through JavaScript, the database and the wire.
import { Schema } from "effect"

// The `u` flag lets the pattern be written into JSON Schema (and so into the OpenAPI document) as it is.
const pattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/u

export const Timestamp = Schema.String.annotate({
  format: "date-time",
  examples: ["2026-11-22T01:47:15.123456Z"]
}).pipe(
  Schema.check(Schema.isPattern(pattern, { expected: "an ISO 8601 UTC timestamp with six fractional digits" })),
  Schema.brand("Timestamp")
)
export type Timestamp = typeof Timestamp.Type

/** The timestamp of an instant given in microseconds since the Unix epoch. */
export const fromEpochMicros = (micros: bigint): Timestamp => {
  // The second is floored, not truncated toward zero: before 1970 the fraction still counts up from the second
  // below, so -1 µs is 1969-12-31T23:59:59.999999Z.
  const fraction = ((micros % 1_000_000n) + 1_000_000n) % 1_000_000n
  const iso = new Date(Number((micros - fraction) / 1000n)).toISOString()
  return `${iso.slice(0, 19)}.${fraction.toString().padStart(6, "0")}Z` as Timestamp
}

/** The timestamp of an instant given in nanoseconds since the Unix epoch (what `Clock.currentTimeNanos` gives). */
export const fromEpochNanos = (nanos: bigint): Timestamp => fromEpochMicros(nanos / 1000n)

/**
 * An RFC 3339 date-time with any offset (as a query's `created_gte` takes one, already checked), as a timestamp: the
 * same instant in UTC, its microseconds kept.
 */
export const fromDateTime = (dateTime: string): Timestamp => {
  const fraction = /\.(\d+)/.exec(dateTime)?.[1] ?? ""
  const extraMicros = BigInt(fraction.padEnd(6, "0").slice(3, 6))
  return fromEpochMicros(BigInt(Date.parse(dateTime)) * 1000n + extraMicros)
}

export const toEpochMillis = (timestamp: Timestamp): number => Date.parse(`${timestamp.slice(0, 23)}Z`)

export const plusSeconds = (timestamp: Timestamp, seconds: number): Timestamp =>
  fromEpochMicros(toEpochMicros(timestamp) + BigInt(seconds) * 1_000_000n)

export const toEpochMicros = (timestamp: Timestamp): bigint =>
  BigInt(Date.parse(`${timestamp.slice(0, 19)}Z`)) * 1000n + BigInt(timestamp.slice(20, 26))
