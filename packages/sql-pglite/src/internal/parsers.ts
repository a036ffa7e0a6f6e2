// Text-format result parsers that give PGlite's rows the JS types @effect/sql-pg's binary codecs produce.
import type { ParserOptions } from "@electric-sql/pglite"
import { types } from "@electric-sql/pglite"

/** Seconds between the Unix epoch and the PostgreSQL epoch (2000-01-01). */
const PG_EPOCH_SECONDS = 946684800
const PG_EPOCH_MS = PG_EPOCH_SECONDS * 1000

/** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm). */
const daysFromCivil = (year: number, month: number, day: number): number => {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
  return era * 146097 + dayOfEra - 719468
}

/** PostgreSQL prints year N BC as `N ... BC`; the binary codec counts astronomically, where 1 BC is year 0. */
const astronomicalYear = (digits: string, bc: boolean): number => (bc ? 1 - Number(digits) : Number(digits))

const micros = (fraction: string | undefined): number =>
  fraction === undefined ? 0 : Number(fraction.padEnd(6, "0").slice(0, 6))

const timestampPattern =
  /^(\d{4,})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([+-])(\d{2})(?::(\d{2}))?(?::(\d{2}))?)?( BC)?$/

/**
 * Mirrors sql-pg: truncates to milliseconds toward the PostgreSQL epoch, and maps
 * `infinity`, `-infinity` and instants outside the `Date` range to an invalid `Date`.
 * Without an offset (`timestamp`) the wall-clock fields are read as UTC.
 */
const parseTimestamp = (text: string): Date => {
  const match = timestampPattern.exec(text)
  if (match === null) {
    if (text === "infinity" || text === "-infinity") return new Date(Number.NaN)
    throw new Error(`PgliteClient: unrecognised timestamp "${text}"`)
  }
  const [, year, month, day, hours, minutes, seconds, fraction, sign, offsetHours, offsetMinutes, offsetSeconds, bc] =
    match
  const days = daysFromCivil(astronomicalYear(year!, bc !== undefined), Number(month), Number(day))
  const offset =
    sign === undefined
      ? 0
      : (sign === "-" ? -1 : 1) *
        (Number(offsetHours) * 3600 + Number(offsetMinutes ?? 0) * 60 + Number(offsetSeconds ?? 0))
  const pgSeconds =
    days * 86400 + Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds) - offset - PG_EPOCH_SECONDS
  const fractionMicros = micros(fraction)
  const fractionMs = pgSeconds < 0 ? Math.ceil(fractionMicros / 1000) : Math.floor(fractionMicros / 1000)
  return new Date(pgSeconds * 1000 + fractionMs + PG_EPOCH_MS)
}

const datePattern = /^(\d{4,})-(\d{2})-(\d{2})( BC)?$/

/** sql-pg returns dates as `YYYY-MM-DD` text with astronomical, sign-prefixed years. */
const parseDate = (text: string): string => {
  const match = datePattern.exec(text)
  if (match === null || match[4] === undefined) return text
  const year = astronomicalYear(match[1]!, true)
  const yearText = year < 0 ? `-${String(-year).padStart(4, "0")}` : String(year).padStart(4, "0")
  return `${yearText}-${match[2]}-${match[3]}`
}

const timePattern = /^(\d{2,}):(\d{2}):(\d{2})(?:\.(\d+))?/

const timeOfDayMicros = (text: string): number => {
  const match = timePattern.exec(text)
  if (match === null) throw new Error(`PgliteClient: unrecognised time "${text}"`)
  return (Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3])) * 1_000_000 + micros(match[4])
}

/** sql-pg returns `time` as microseconds since midnight. */
const parseTime = (text: string): bigint => BigInt(timeOfDayMicros(text))

const zonePattern = /([+-])(\d{2})(?::(\d{2}))?(?::(\d{2}))?$/

/** sql-pg prints the zone of a `timetz` as `±HH:MM`, where PostgreSQL omits zero minutes. */
const parseTimetz = (text: string): string => {
  const match = zonePattern.exec(text)
  if (match === null) throw new Error(`PgliteClient: unrecognised timetz "${text}"`)
  const east = (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3] ?? 0))
  const sign = east < 0 ? "-" : "+"
  const total = Math.abs(east)
  const zone = `${sign}${String(Math.floor(total / 60)).padStart(2, "0")}:${String(total % 60).padStart(2, "0")}`
  return text.slice(0, match.index) + zone
}

/**
 * The shape sql-pg decodes an `interval` to: calendar months, days and signed
 * microseconds kept apart, as PostgreSQL stores them.
 */
export interface Interval {
  readonly months: number
  readonly days: number
  readonly microseconds: bigint
}

const intervalTimePattern = /^([+-])?(\d+):(\d{2}):(\d{2})(?:\.(\d+))?$/
const MICROS_PER_SECOND = BigInt(1_000_000)

/** Reads the default `IntervalStyle = postgres` output, such as `1 year 2 mons -3 days +04:05:06.5`. */
const parseInterval = (text: string): Interval => {
  let months = 0
  let days = 0
  let microseconds = BigInt(0)
  const tokens = text.split(" ")
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!
    const time = intervalTimePattern.exec(token)
    if (time !== null) {
      const [, sign, hours, minutes, seconds, fraction] = time
      const magnitude =
        (BigInt(hours!) * BigInt(3600) + BigInt(Number(minutes) * 60 + Number(seconds))) * MICROS_PER_SECOND +
        BigInt(micros(fraction))
      microseconds += sign === "-" ? -magnitude : magnitude
      continue
    }
    const unit = tokens[index + 1]
    if (!/^[+-]?\d+$/.test(token) || unit === undefined) {
      throw new Error(`PgliteClient: unrecognised interval "${text}" (IntervalStyle must be "postgres")`)
    }
    index++
    const amount = Number(token)
    if (unit.startsWith("year")) months += amount * 12
    else if (unit.startsWith("mon")) months += amount
    else if (unit.startsWith("day")) days += amount
    else throw new Error(`PgliteClient: unrecognised interval "${text}" (IntervalStyle must be "postgres")`)
  }
  return { months, days, microseconds }
}

const scalars: ReadonlyArray<readonly [oid: number, arrayOid: number, parse: (text: string) => unknown]> = [
  [types.INT8, 1016, (text) => BigInt(text)],
  // PostgreSQL prints the shortest text that round-trips the float4; the binary codec widens the float4 itself.
  [types.FLOAT4, 1021, (text) => Math.fround(Number(text))],
  [types.DATE, 1182, parseDate],
  [types.TIME, 1183, parseTime],
  [types.TIMETZ, 1270, parseTimetz],
  [types.TIMESTAMP, 1115, parseTimestamp],
  [types.TIMESTAMPTZ, 1185, parseTimestamp],
  [types.INTERVAL, 1187, parseInterval]
]

/**
 * Passed per query rather than set on the instance, so a caller's own PGlite
 * keeps its parsers for its own queries. Array types are listed too because
 * PGlite's array parsers only see the instance's element parsers.
 */
export const parsers: ParserOptions = Object.fromEntries(
  scalars.flatMap(([oid, arrayOid, parse]) => [
    [oid, parse],
    [arrayOid, (text: string) => types.arrayParser(text, parse, arrayOid)]
  ])
)
