// Automatic withdrawals (SPEC 13.4): the schedule a company may set — every business day, one weekday a week, or one
// day a month — the days it falls on, and what such a withdrawal takes out.
import { Result, Schema } from "effect"
import { type CalendarDate, isBusinessDay, onBusinessDay, plusDays } from "./BusinessCalendar.js"

/** `off`, `daily`, `weekly:<1-5>` (Monday to Friday) or `monthly:<1-28>`. */
export const Schedule = Schema.String.check(
  Schema.isPattern(/^(off|daily|weekly:[1-5]|monthly:([1-9]|1\d|2[0-8]))$/u, {
    expected: "off, daily, weekly:<1-5> or monthly:<1-28>"
  })
).pipe(Schema.brand("AutoWithdrawalSchedule"))
export type Schedule = typeof Schedule.Type

export const off = "off" as Schedule

export class InvalidSchedule extends Schema.TaggedError<InvalidSchedule>()("InvalidSchedule", {
  given: Schema.String
}) {
  override get message(): string {
    return `${JSON.stringify(this.given)} is no schedule: off, daily, weekly:<1-5> (Monday to Friday) or monthly:<1-28>`
  }
}

export const parse = (text: string): Result.Result<Schedule, InvalidSchedule> =>
  Schema.is(Schedule)(text) ? Result.succeed(text) : Result.fail(new InvalidSchedule({ given: text }))

/** The least an automatic withdrawal takes out: R$ 10,00. */
export const minimumAmount = 1_000

const weekdayOf = (date: CalendarDate) => new Date(`${date}T00:00:00Z`).getUTCDay()

/**
 * Whether a schedule withdraws on `today`: a business day that is its day, or the first business day after its day
 * when that one was not (a Friday that is a holiday moves to Monday, the 28th that is a Sunday to the 1st after).
 */
export const isDue = (schedule: Schedule, today: CalendarDate): boolean => {
  if (schedule === "off" || !isBusinessDay(today)) return false
  if (schedule === "daily") return true
  const [kind, value] = schedule.split(":") as ["weekly" | "monthly", string]
  const day = Number(value)
  // The schedule's day this week (or month) and the one before: either may have moved to today.
  const candidates =
    kind === "weekly"
      ? [0, -7].map((back) => plusDays(today, day - (weekdayOf(today) === 0 ? 7 : weekdayOf(today)) + back))
      : [today.slice(0, 7), plusDays(`${today.slice(0, 7)}-01` as CalendarDate, -1).slice(0, 7)].map(
          (month) => `${month}-${String(day).padStart(2, "0")}` as CalendarDate
        )
  return candidates.some((date) => date <= today && onBusinessDay(date) === today)
}

/** What an automatic withdrawal takes out of `available`: all of it but its fee, or nothing below the minimum. */
export const amountOf = (available: number, fee: number): number | null =>
  available - fee >= minimumAmount ? available - fee : null
