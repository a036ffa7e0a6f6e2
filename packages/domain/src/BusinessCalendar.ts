// The Brazilian business-day calendar receivables are dated on (SPEC 13.1): Monday to Friday except the national bank
// holidays. Calendar dates are `YYYY-MM-DD` strings, so `<` and `>` compare them as dates and no `compare` is needed.
import { Schema } from "effect"
import { type Timestamp, toEpochMillis } from "./Timestamp.js"

// The `u` flag lets the pattern be written into JSON Schema (and so into the OpenAPI document) as it is.
const pattern = /^\d{4}-\d{2}-\d{2}$/u

const millisPerDay = 86_400_000

const millisOf = (date: string) => Date.parse(`${date}T00:00:00Z`)

const dateAt = (millis: number) => new Date(millis).toISOString().slice(0, 10)

// `Date.parse` takes any day up to 31 in every month (2026-02-30 is read as 2 March), so a date is real only when
// writing back the day it was read as gives the same text.
const isRealDate = Schema.makeFilter(
  (value: string) => {
    const millis = millisOf(value)
    return !Number.isNaN(millis) && dateAt(millis) === value
  },
  { expected: "a day of the calendar" }
)

export const CalendarDate = Schema.String.annotate({
  format: "date",
  examples: ["2026-12-24"]
}).pipe(
  // Aborting on a malformed string spares the day check, and the reader, a second complaint about the same text.
  Schema.check(Schema.isPattern(pattern, { expected: "a date as YYYY-MM-DD" }).abort(), isRealDate),
  Schema.brand("CalendarDate")
)
export type CalendarDate = typeof CalendarDate.Type

export const plusDays = (date: CalendarDate, days: number): CalendarDate =>
  dateAt(millisOf(date) + days * millisPerDay) as CalendarDate

const dateOf = (year: number, month: number, day: number) =>
  `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}` as CalendarDate

/** Easter Sunday of a year of the Gregorian calendar, by the anonymous Gregorian algorithm (Meeus/Jones/Butcher). */
export const easterSunday = (year: number): CalendarDate => {
  const a = year % 19
  const b = Math.floor(year / 100)
  const c = year % 100
  const d = Math.floor(b / 4)
  const e = b % 4
  const f = Math.floor((b + 8) / 25)
  const g = Math.floor((b - f + 1) / 3)
  const h = (19 * a + b - d - g + 15) % 30
  const i = Math.floor(c / 4)
  const k = c % 4
  const l = (32 + 2 * e + 2 * i - h - k) % 7
  const m = Math.floor((a + 11 * h + 22 * l) / 451)
  const monthAndDay = h + l - 7 * m + 114
  return dateOf(year, Math.floor(monthAndDay / 31), (monthAndDay % 31) + 1)
}

export interface Holiday {
  readonly date: CalendarDate
  /** The name FEBRABAN's calendar gives it. */
  readonly name: string
}

const fixedHolidays: ReadonlyArray<readonly [month: number, day: number, name: string]> = [
  [1, 1, "Confraternização Universal"],
  [4, 21, "Tiradentes"],
  [5, 1, "Dia do Trabalho"],
  [9, 7, "Independência do Brasil"],
  [10, 12, "Nossa Senhora Aparecida"],
  [11, 2, "Finados"],
  [11, 15, "Proclamação da República"],
  // National since 2024 (Law 14.759/2023): the calendar is for dates from then on.
  [11, 20, "Dia Nacional de Zumbi e da Consciência Negra"],
  [12, 25, "Natal"]
]

const holidaysOfYear = new Map<number, ReadonlyArray<Holiday>>()

/**
 * The national bank holidays of a year in date order, those on a weekend included. Good Friday can fall on
 * Tiradentes (21 April 2000 did): both are listed then, under their own names.
 */
export const holidays = (year: number): ReadonlyArray<Holiday> => {
  const known = holidaysOfYear.get(year)
  if (known !== undefined) return known
  const easter = easterSunday(year)
  const listed: ReadonlyArray<Holiday> = [
    ...fixedHolidays.map(([month, day, name]) => ({ date: dateOf(year, month, day), name })),
    { date: plusDays(easter, -48), name: "Carnaval" },
    { date: plusDays(easter, -47), name: "Carnaval" },
    { date: plusDays(easter, -2), name: "Paixão de Cristo" },
    { date: plusDays(easter, 60), name: "Corpus Christi" }
  ].sort((left, right) => (left.date < right.date ? -1 : left.date > right.date ? 1 : 0))
  holidaysOfYear.set(year, listed)
  return listed
}

export const isBusinessDay = (date: CalendarDate): boolean => {
  const weekday = new Date(millisOf(date)).getUTCDay()
  if (weekday === 0 || weekday === 6) return false
  return !holidays(Number(date.slice(0, 4))).some((holiday) => holiday.date === date)
}

/** The date itself when it is a business day, else the first business day after it. */
export const onBusinessDay = (date: CalendarDate): CalendarDate => {
  let day = date
  while (!isBusinessDay(day)) day = plusDays(day, 1)
  return day
}

/** The first business day strictly after the date. */
export const nextBusinessDay = (date: CalendarDate): CalendarDate => onBusinessDay(plusDays(date, 1))

// São Paulo has kept UTC−3 all year since Brazil ended daylight saving time in 2019, so a fixed offset is exact for
// every instant the service records.
const saoPauloOffsetMillis = -3 * 60 * 60 * 1000

/** The calendar date in São Paulo at an instant. */
export const saoPauloDate = (timestamp: Timestamp): CalendarDate =>
  dateAt(toEpochMillis(timestamp) + saoPauloOffsetMillis) as CalendarDate
