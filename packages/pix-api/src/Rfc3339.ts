// Instants as the API Pix writes them — RFC 3339, any number of fractional digits, `Z` or an offset — read into the
// domain's Timestamp (UTC, six fractional digits). Read by hand rather than by `Date`, which keeps milliseconds only.
import { Timestamp } from "@fatura/domain"
import { Effect, Option, Schema, SchemaIssue, SchemaTransformation } from "effect"

const dateTime = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/

const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
const daysIn = (year: number, month: number) =>
  month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31

/**
 * The instant `text` names, as a Timestamp: digits past the microsecond are dropped (the instant is floored), an
 * offset is taken off. None for what is not an RFC 3339 date-time with a zone, or names no day or time of the clock.
 */
export const toTimestamp = (text: string): Option.Option<Timestamp.Timestamp> => {
  const parts = dateTime.exec(text)
  if (parts === null) return Option.none()
  const [year, month, day, hour, minute, second] = parts.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number
  ]
  const offsetHours = Number(parts[10] ?? 0)
  const offsetMinutes = Number(parts[11] ?? 0)
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return Option.none()
  // A leap second (:60) is the last instant of its minute, as the clock of a computer reads it.
  if (hour > 23 || minute > 59 || second > 60 || offsetHours > 23 || offsetMinutes > 59) return Option.none()
  const offsetMillis = (parts[9] === "-" ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000
  const wholeSeconds = Date.UTC(year, month - 1, day, hour, minute, Math.min(second, 59)) - offsetMillis
  const micros = (parts[7] ?? "").padEnd(6, "0").slice(0, 6)
  const fraction = second === 60 ? 999_999n : BigInt(micros)
  return Option.some(Timestamp.fromEpochMicros(BigInt(wholeSeconds) * 1000n + fraction))
}

/** An RFC 3339 date-time on the wire, a Timestamp once decoded (encoded back as the Timestamp's own text). */
export const TimestampFromRfc3339 = Schema.String.pipe(
  Schema.decodeTo(
    Timestamp.Timestamp,
    // Timestamp then checks and brands what this reads.
    SchemaTransformation.transformEffect<string, string>({
      decode: (text, options) =>
        Option.match(toTimestamp(text), {
          onNone: () =>
            Effect.fail(new SchemaIssue.InvalidValue({ expected: "an RFC 3339 date-time with a zone" }, text, options)),
          onSome: Effect.succeed
        }),
      encode: Effect.succeed
    })
  )
)
