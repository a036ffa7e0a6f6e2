// Calendar dates as the API Pix writes a charge's due date (`YYYY-MM-DD`, ISO 8601), and the day an instant falls on
// in São Paulo, where this PSP and its client are: a charge with a due date is payable until that day ends there.
import { Schema } from "effect"

const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/

/** Whether `text` is a `YYYY-MM-DD` date that names a day of the calendar (no 2026-02-30). */
export const isCalendarDate = (text: string): boolean => {
  const parts = datePattern.exec(text)
  if (parts === null) return false
  const [year, month, day] = parts.slice(1, 4).map(Number) as [number, number, number]
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/** A `YYYY-MM-DD` date on the wire, as the spec's `format: date`. */
export const CalendarDate = Schema.String.check(
  Schema.makeFilter((text: string) => isCalendarDate(text) || "uma data AAAA-MM-DD que existe", {
    expected: "uma data AAAA-MM-DD"
  })
)

const saoPaulo = new Intl.DateTimeFormat("en-CA", {
  timeZone: "America/Sao_Paulo",
  year: "numeric",
  month: "2-digit",
  day: "2-digit"
})

/** The date (`YYYY-MM-DD`) in São Paulo at the instant `millis`. */
export const saoPauloDate = (millis: number): string => {
  const parts = Object.fromEntries(saoPaulo.formatToParts(new Date(millis)).map((part) => [part.type, part.value]))
  return `${parts.year}-${parts.month}-${parts.day}`
}

/** The date `days` calendar days after `date` (a `YYYY-MM-DD` date). */
export const plusDays = (date: string, days: number): string => {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number]
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10)
}
