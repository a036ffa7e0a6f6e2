// Automatic withdrawals (SPEC 13.4): the schedules a company may set, the business days they fall on, and what such
// a withdrawal takes out.
import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import { AutoWithdrawal, type BusinessCalendar } from "../src/index.js"

const day = (date: string) => date as BusinessCalendar.CalendarDate
const schedule = (text: string) => Result.getOrThrow(AutoWithdrawal.parse(text))

/** The days of `from`..`to` a schedule withdraws on. */
const daysOf = (text: string, from: string, to: string) => {
  const days: Array<string> = []
  for (let date = Date.parse(`${from}T00:00:00Z`); date <= Date.parse(`${to}T00:00:00Z`); date += 86_400_000) {
    const iso = new Date(date).toISOString().slice(0, 10)
    if (AutoWithdrawal.isDue(schedule(text), day(iso))) days.push(iso)
  }
  return days
}

describe("AutoWithdrawal", () => {
  it("takes off, daily, weekly:<1-5> and monthly:<1-28>, and nothing else", () => {
    for (const text of ["off", "daily", "weekly:1", "weekly:5", "monthly:1", "monthly:28"]) {
      expect(Result.isSuccess(AutoWithdrawal.parse(text)), text).toBe(true)
    }
    for (const text of ["", "weekly:0", "weekly:6", "monthly:0", "monthly:29", "monthly:31", "Daily", "weekly", "on"]) {
      expect(AutoWithdrawal.parse(text), text).toMatchObject({ failure: { _tag: "InvalidSchedule", given: text } })
    }
  })

  it("withdraws daily on business days only: never on a weekend or a bank holiday", () => {
    // Easter week of 2026: Good Friday the 3rd, Tiradentes the 21st is a Tuesday.
    expect(daysOf("daily", "2026-04-01", "2026-04-08")).toEqual([
      "2026-04-01",
      "2026-04-02",
      "2026-04-06",
      "2026-04-07",
      "2026-04-08"
    ])
    expect(daysOf("off", "2026-04-01", "2026-04-30")).toEqual([])
  })

  it("withdraws weekly on its weekday, or the next business day when that one is a holiday", () => {
    // Fridays of April 2026: Good Friday (the 3rd) moves to Monday the 6th.
    expect(daysOf("weekly:5", "2026-04-01", "2026-04-30")).toEqual([
      "2026-04-06",
      "2026-04-10",
      "2026-04-17",
      "2026-04-24"
    ])
    // Tuesdays: Tiradentes (the 21st) moves to Wednesday the 22nd.
    expect(daysOf("weekly:2", "2026-04-13", "2026-04-30")).toEqual(["2026-04-14", "2026-04-22", "2026-04-28"])
  })

  it("withdraws monthly on its day, or the next business day: across a weekend and a month's end", () => {
    // 15 Nov 2026 is a Sunday and a holiday: Monday the 16th. 28 Feb 2026 is a Saturday: Monday 2 March.
    expect(daysOf("monthly:15", "2026-11-01", "2026-12-31")).toEqual(["2026-11-16", "2026-12-15"])
    expect(daysOf("monthly:28", "2026-02-01", "2026-03-31")).toEqual(["2026-03-02", "2026-03-30"])
  })

  it("takes out all that is available but the fee, when that is at least R$ 10,00", () => {
    expect(AutoWithdrawal.amountOf(10_000, 367)).toBe(9_633)
    expect(AutoWithdrawal.amountOf(1_367, 367)).toBe(1_000)
    expect(AutoWithdrawal.amountOf(1_366, 367)).toBeNull()
    expect(AutoWithdrawal.amountOf(-500, 367)).toBeNull()
  })
})
