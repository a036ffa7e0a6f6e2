// The current instant in the contract's timestamp form, and today's business date in São Paulo, read from
// Effect's Clock so tests can move time.
import { Timestamp } from "@fatura/domain"
import { Clock, Effect } from "effect"

export const now: Effect.Effect<Timestamp.Timestamp> = Effect.map(Clock.currentTimeNanos, Timestamp.fromEpochNanos)

const saoPaulo = new Intl.DateTimeFormat("en-CA", {
  timeZone: "America/Sao_Paulo",
  year: "numeric",
  month: "2-digit",
  day: "2-digit"
})

/** The São Paulo calendar date (YYYY-MM-DD) of an instant. */
export const businessDate = (timestamp: Timestamp.Timestamp): string =>
  saoPaulo.format(new Date(Timestamp.toEpochMillis(timestamp)))

/** A calendar date plus some days, as YYYY-MM-DD. */
export const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

/** The instant a São Paulo business date ends (its next day's midnight: UTC−3, no daylight saving since 2019). */
export const endOfBusinessDate = (date: string): Timestamp.Timestamp =>
  Timestamp.fromDateTime(`${addDays(date, 1)}T00:00:00-03:00`)
