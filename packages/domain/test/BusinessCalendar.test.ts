import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import * as fc from "fast-check"
import { propertyRuns } from "../../../scripts/property-tests/settings.mjs"
import type { Timestamp } from "../src/index.js"
import { BusinessCalendar } from "../src/index.js"

const date = Schema.decodeSync(BusinessCalendar.CalendarDate)

// FEBRABAN's published calendars of national bank holidays, written out by hand: not computed by the code under test.
const publishedHolidays: ReadonlyArray<readonly [year: number, dates: ReadonlyArray<string>]> = [
  [
    2025,
    [
      "2025-01-01",
      "2025-03-03",
      "2025-03-04",
      "2025-04-18",
      "2025-04-21",
      "2025-05-01",
      "2025-06-19",
      "2025-09-07",
      "2025-10-12",
      "2025-11-02",
      "2025-11-15",
      "2025-11-20",
      "2025-12-25"
    ]
  ],
  [
    2026,
    [
      "2026-01-01",
      "2026-02-16",
      "2026-02-17",
      "2026-04-03",
      "2026-04-21",
      "2026-05-01",
      "2026-06-04",
      "2026-09-07",
      "2026-10-12",
      "2026-11-02",
      "2026-11-15",
      "2026-11-20",
      "2026-12-25"
    ]
  ],
  [
    2027,
    [
      "2027-01-01",
      "2027-02-08",
      "2027-02-09",
      "2027-03-26",
      "2027-04-21",
      "2027-05-01",
      "2027-05-27",
      "2027-09-07",
      "2027-10-12",
      "2027-11-02",
      "2027-11-15",
      "2027-11-20",
      "2027-12-25"
    ]
  ],
  [
    2028,
    [
      "2028-01-01",
      "2028-02-28",
      "2028-02-29",
      "2028-04-14",
      "2028-04-21",
      "2028-05-01",
      "2028-06-15",
      "2028-09-07",
      "2028-10-12",
      "2028-11-02",
      "2028-11-15",
      "2028-11-20",
      "2028-12-25"
    ]
  ],
  [
    2029,
    [
      "2029-01-01",
      "2029-02-12",
      "2029-02-13",
      "2029-03-30",
      "2029-04-21",
      "2029-05-01",
      "2029-05-31",
      "2029-09-07",
      "2029-10-12",
      "2029-11-02",
      "2029-11-15",
      "2029-11-20",
      "2029-12-25"
    ]
  ],
  [
    2030,
    [
      "2030-01-01",
      "2030-03-04",
      "2030-03-05",
      "2030-04-19",
      "2030-04-21",
      "2030-05-01",
      "2030-06-20",
      "2030-09-07",
      "2030-10-12",
      "2030-11-02",
      "2030-11-15",
      "2030-11-20",
      "2030-12-25"
    ]
  ]
]

describe("BusinessCalendar", () => {
  it.each([
    [2025, "2025-04-20"],
    [2026, "2026-04-05"],
    [2027, "2027-03-28"],
    [2028, "2028-04-16"],
    [2029, "2029-04-01"],
    [2030, "2030-04-21"],
    [2000, "2000-04-23"],
    [2019, "2019-04-21"],
    [2038, "2038-04-25"]
  ])("puts Easter Sunday %i on %s", (year, easter) => {
    expect(BusinessCalendar.easterSunday(year)).toBe(easter)
  })

  it.each(publishedHolidays)("lists the national bank holidays of %i as FEBRABAN publishes them", (year, dates) => {
    expect(BusinessCalendar.holidays(year).map((holiday) => holiday.date)).toEqual(dates)
  })

  it("names each holiday as FEBRABAN does", () => {
    expect(BusinessCalendar.holidays(2026).map((holiday) => holiday.name)).toEqual([
      "Confraternização Universal",
      "Carnaval",
      "Carnaval",
      "Paixão de Cristo",
      "Tiradentes",
      "Dia do Trabalho",
      "Corpus Christi",
      "Independência do Brasil",
      "Nossa Senhora Aparecida",
      "Finados",
      "Proclamação da República",
      "Dia Nacional de Zumbi e da Consciência Negra",
      "Natal"
    ])
  })

  it("counts neither weekends nor holidays as business days", () => {
    expect(BusinessCalendar.isBusinessDay(date("2026-11-21"))).toBe(false)
    expect(BusinessCalendar.isBusinessDay(date("2026-11-22"))).toBe(false)
    for (const [, dates] of publishedHolidays) {
      for (const holiday of dates) expect(BusinessCalendar.isBusinessDay(date(holiday)), holiday).toBe(false)
    }
    expect(BusinessCalendar.isBusinessDay(date("2026-11-24"))).toBe(true)
    // Ash Wednesday is no national holiday: banks open, if late.
    expect(BusinessCalendar.isBusinessDay(date("2026-02-18"))).toBe(true)
  })

  it.each([
    { from: "2026-11-24", on: "2026-11-24", next: "2026-11-25" },
    { from: "2026-04-03", on: "2026-04-06", next: "2026-04-06" },
    { from: "2026-04-02", on: "2026-04-02", next: "2026-04-06" },
    { from: "2026-02-14", on: "2026-02-18", next: "2026-02-18" },
    { from: "2026-02-13", on: "2026-02-13", next: "2026-02-18" },
    { from: "2026-11-19", on: "2026-11-19", next: "2026-11-23" },
    { from: "2026-12-31", on: "2026-12-31", next: "2027-01-04" },
    { from: "2027-01-01", on: "2027-01-04", next: "2027-01-04" }
  ])("from $from: on a business day $on, the next business day $next", ({ from, next, on }) => {
    expect(BusinessCalendar.onBusinessDay(date(from))).toBe(on)
    expect(BusinessCalendar.nextBusinessDay(date(from))).toBe(next)
  })

  it.each([
    { from: "2026-01-31", days: 1, to: "2026-02-01" },
    { from: "2026-12-31", days: 1, to: "2027-01-01" },
    { from: "2027-01-01", days: -1, to: "2026-12-31" },
    { from: "2028-02-28", days: 1, to: "2028-02-29" },
    { from: "2028-02-29", days: 1, to: "2028-03-01" },
    { from: "2027-02-28", days: 1, to: "2027-03-01" },
    { from: "2026-04-05", days: 60, to: "2026-06-04" },
    { from: "2026-04-05", days: -48, to: "2026-02-16" },
    { from: "2026-03-10", days: 0, to: "2026-03-10" }
  ])("counts $days calendar days from $from to $to", ({ days, from, to }) => {
    expect(BusinessCalendar.plusDays(date(from), days)).toBe(to)
  })

  it.each([
    { instant: "2026-11-25T02:59:59.999999Z", day: "2026-11-24" },
    { instant: "2026-11-25T03:00:00.000000Z", day: "2026-11-25" },
    { instant: "2027-01-01T02:00:00.000000Z", day: "2026-12-31" }
  ])("dates $instant in São Paulo on $day", ({ day, instant }) => {
    expect(BusinessCalendar.saoPauloDate(instant as Timestamp.Timestamp)).toBe(day)
  })

  it("takes only real days of the calendar written YYYY-MM-DD", () => {
    const decode = Schema.decodeUnknownExit(BusinessCalendar.CalendarDate)
    for (const accepted of ["2028-02-29", "2026-12-31", "2026-01-01"]) {
      expect(decode(accepted)._tag, accepted).toBe("Success")
    }
    for (const refused of ["2026-13-01", "2026-02-30", "2027-02-29", "2026-04-31", "2026-00-10", "26-01-01", ""]) {
      expect(decode(refused)._tag, refused).toBe("Failure")
    }
  })

  it("moves any date of 2025 to 2030 onto the first business day from it, and never before it", () => {
    const dates = fc
      .date({ min: new Date("2025-01-01T00:00:00Z"), max: new Date("2030-12-31T23:59:59Z"), noInvalidDate: true })
      .map((instant) => date(instant.toISOString().slice(0, 10)))
    fc.assert(
      fc.property(dates, (day) => {
        const businessDay = BusinessCalendar.onBusinessDay(day)
        expect(BusinessCalendar.isBusinessDay(businessDay)).toBe(true)
        expect(businessDay >= day).toBe(true)
        for (let skipped = day; skipped < businessDay; skipped = BusinessCalendar.plusDays(skipped, 1)) {
          expect(BusinessCalendar.isBusinessDay(skipped), skipped).toBe(false)
        }
        expect(BusinessCalendar.nextBusinessDay(day) > day).toBe(true)
      }),
      { numRuns: propertyRuns(1_000) }
    )
  })
})
