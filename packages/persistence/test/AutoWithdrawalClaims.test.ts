// The CompanyRepository's automatic withdrawals (SPEC 13.4), on each database: a schedule set and read back, and each
// company with one handed to one sweep a day.
import { expect } from "@effect/vitest"
import { CompanyRepository } from "@fatura/application"
import { AutoWithdrawal, type BusinessCalendar, type Company } from "@fatura/domain"
import { Effect, Option } from "effect"
import { aCompany, at } from "./support/Fixtures.js"
import { onEachDatabase } from "./support/TestDatabases.js"

const unknownCompany = 987_654_321 as Company.CompanyId

onEachDatabase("CompanyRepository's automatic withdrawals", (it) => {
  it.effect("sets an automatic withdrawal schedule, and hands each company with one to one sweep a day", () =>
    Effect.gen(function* () {
      const companies = yield* CompanyRepository
      const daily = yield* aCompany()
      const weekly = yield* aCompany()
      yield* aCompany()
      expect(yield* companies.setAutoWithdrawal(daily.id, "daily" as AutoWithdrawal.Schedule, at(10))).toBe(true)
      expect(yield* companies.setAutoWithdrawal(weekly.id, "weekly:2" as AutoWithdrawal.Schedule, at(10))).toBe(true)
      expect(yield* companies.setAutoWithdrawal(unknownCompany, AutoWithdrawal.off, at(10))).toBe(false)
      expect(Option.getOrThrow(yield* companies.findById(weekly.id))).toMatchObject({
        autoWithdrawal: "weekly:2",
        updatedAt: at(10)
      })
      const day = (date: string) => date as BusinessCalendar.CalendarDate
      // One at a time: the first claim takes one, the second the other, a third none that day.
      expect((yield* companies.claimAutoWithdrawals(day("2026-03-10"), 1)).map((c) => c.id)).toEqual([daily.id])
      const second = yield* companies.claimAutoWithdrawals(day("2026-03-10"), 10)
      expect(second.map((c) => [c.id, c.autoWithdrawal])).toEqual([[weekly.id, "weekly:2"]])
      expect(yield* companies.claimAutoWithdrawals(day("2026-03-10"), 10)).toEqual([])
      // The next day both again.
      expect((yield* companies.claimAutoWithdrawals(day("2026-03-11"), 10)).map((c) => c.id)).toEqual([
        daily.id,
        weekly.id
      ])
      yield* companies.setAutoWithdrawal(daily.id, AutoWithdrawal.off, at(20))
      expect((yield* companies.claimAutoWithdrawals(day("2026-03-12"), 10)).map((c) => c.id)).toEqual([weekly.id])
    })
  )
})
