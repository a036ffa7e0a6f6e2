// Dates and instants as clients send them (SPEC 1, 4.1 `due_date`, 4.3 `created_gte` / `created_lte`): RFC 3339
// forms that name a day of the calendar and a time of the clock, so that no use case and no database ever meets
// 2026-11-31, 24:00 or the year 0. Dates and instants lie in the years 1900 to 9999 (UTC for an instant): nothing in
// the service is older, and every database and every client's date library holds that range.
import { Schema } from "effect"

const fullDate = /^(\d{4})-(\d{2})-(\d{2})$/
// Seconds may be left out, as many clients do; a fraction has at most the contract's six digits.
const dateTime = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(?:Z|[+-](\d{2}):(\d{2}))$/

const earliestYear = 1900
const latestYear = 9999
const earliestInstant = Date.UTC(earliestYear, 0, 1)
const endOfLatestYear = Date.UTC(latestYear + 1, 0, 1)

const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)

const daysInMonth = (year: number, month: number) =>
  month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31

/** Why `year-month-day` is no day of the (proleptic Gregorian) calendar, or undefined when it is one. */
const dayProblem = (year: number, month: number, day: number): string | undefined => {
  if (month < 1 || month > 12) return `has no month ${String(month).padStart(2, "0")}`
  const days = daysInMonth(year, month)
  return day >= 1 && day <= days ? undefined : `is no day of the calendar: that month has days 01 to ${days}`
}

/**
 * A calendar date `YYYY-MM-DD` that exists, in the years 1900 to 9999: month 01–12, a day the month has (29 February
 * in leap years only).
 */
export const FullDate = Schema.String.check(
  Schema.makeFilter(
    (value: string) => {
      const parts = fullDate.exec(value)
      if (parts === null) return "must be a date as YYYY-MM-DD"
      const year = Number(parts[1])
      if (year < earliestYear || year > latestYear) return `must be in the years ${earliestYear} to ${latestYear}`
      return dayProblem(year, Number(parts[2]), Number(parts[3]))
    },
    { expected: "a date as YYYY-MM-DD", toJsonSchema: () => ({ format: "date" }) }
  )
)

/**
 * An instant with an explicit zone, e.g. `2026-11-01T00:00:00Z` or `2026-11-01T00:00:00.123456-03:00`: a real
 * day, hours 00–23, minutes and seconds 00–59 (no leap second), an offset of at most ±23:59, and an instant from
 * 1900-01-01T00:00:00Z to 9999-12-31T23:59:59.999999Z.
 */
export const DateTime = Schema.String.check(
  Schema.makeFilter(
    (value: string) => {
      const parts = dateTime.exec(value)
      if (parts === null) return "must be an RFC 3339 date-time with a zone, e.g. 2026-11-01T00:00:00-03:00"
      const day = dayProblem(Number(parts[1]), Number(parts[2]), Number(parts[3]))
      if (day !== undefined) return day
      if (Number(parts[4]) > 23 || Number(parts[5]) > 59 || Number(parts[6] ?? 0) > 59) {
        return "is no time of the clock: hours run 00 to 23, minutes and seconds 00 to 59"
      }
      if (Number(parts[7] ?? 0) > 23 || Number(parts[8] ?? 0) > 59) return "has an offset beyond ±23:59"
      // Only now is the text one that Date.parse reads exactly as written.
      const instant = Date.parse(value)
      return instant >= earliestInstant && instant < endOfLatestYear
        ? undefined
        : `must be an instant from ${earliestYear}-01-01T00:00:00Z to ${latestYear}-12-31T23:59:59.999999Z`
    },
    { expected: "an RFC 3339 date-time with a zone", toJsonSchema: () => ({ format: "date-time" }) }
  )
)
