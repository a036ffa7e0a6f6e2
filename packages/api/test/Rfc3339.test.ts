// SPEC 1, 4.1 and 4.3: the dates and instants the contract takes from clients are days of the calendar and times of
// the clock, from 1900 to 9999.
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import * as fc from "fast-check"
import { propertyRuns } from "../../../scripts/property-tests/settings.mjs"
import { Rfc3339 } from "../src/index.js"

const acceptsDate = Schema.is(Rfc3339.FullDate)
const acceptsDateTime = Schema.is(Rfc3339.DateTime)

const pad = (n: number, width = 2) => String(n).padStart(width, "0")

describe("Rfc3339", () => {
  describe("FullDate", () => {
    it.each(["2026-11-30", "2026-12-31", "2028-02-29", "2000-02-29", "1900-01-01", "9999-12-31"])(
      "takes %s",
      (date) => {
        expect(acceptsDate(date)).toBe(true)
      }
    )

    it.each([
      "2026-11-31",
      "2026-13-01",
      "2026-00-10",
      "2026-01-00",
      "2026-02-29",
      "2100-02-29",
      "2026-04-31",
      "1899-12-31",
      "0000-01-01",
      "2026-1-01",
      "2026-11-30T00:00:00Z",
      "20261130"
    ])("refuses %s", (date) => {
      expect(acceptsDate(date)).toBe(false)
    })

    it("takes a year, month and day exactly when the calendar has that day", () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1900, max: 9999 }),
          fc.integer({ min: 0, max: 13 }),
          fc.integer({ min: 0, max: 32 }),
          (year, month, day) => {
            const date = new Date(Date.UTC(year, month - 1, day))
            const exists = date.getUTCMonth() === month - 1 && date.getUTCDate() === day
            expect(acceptsDate(`${pad(year, 4)}-${pad(month)}-${pad(day)}`)).toBe(exists)
          }
        ),
        { numRuns: propertyRuns(2_000) }
      )
    })
  })

  describe("DateTime", () => {
    it.each([
      "2026-11-01T00:00:00Z",
      "2026-11-01T00:00Z",
      "2026-11-01T23:59:59.123456-03:00",
      "2028-02-29T12:00:00+14:00",
      "1900-01-01T00:00:00Z",
      "1899-12-31T23:00:00-03:00",
      "9999-12-31T23:59:59.999999Z",
      "9999-12-31T23:59:59+03:00"
    ])("takes %s", (dateTime) => {
      expect(acceptsDateTime(dateTime)).toBe(true)
    })

    it.each([
      "0000-01-01T00:00:00Z",
      "1899-12-31T23:59:59Z",
      "1900-01-01T00:00:00+00:01",
      "9999-12-31T23:59:59-03:00",
      "2026-02-30T00:00:00Z",
      "2026-11-31T00:00:00Z",
      "2026-13-01T00:00:00Z",
      "2026-01-01T24:00:00Z",
      "2026-01-01T23:60:00Z",
      "2026-12-31T23:59:60Z",
      "2026-01-01T00:00:00+24:00",
      "2026-01-01T00:00:00-03:60",
      "2026-01-01T00:00:00",
      "2026-01-01T00:00:00.1234567Z",
      "2026-01-01 00:00:00Z",
      "yesterday"
    ])("refuses %s", (dateTime) => {
      expect(acceptsDateTime(dateTime)).toBe(false)
    })

    it("takes every instant from 1900 to 9999 as the contract writes timestamps", () => {
      fc.assert(
        fc.property(
          fc.date({
            min: new Date("1900-01-01T00:00:00Z"),
            max: new Date("9999-12-31T23:59:59.999Z"),
            noInvalidDate: true
          }),
          (date) => {
            expect(acceptsDateTime(date.toISOString())).toBe(true)
          }
        ),
        { numRuns: propertyRuns(1_000) }
      )
    })
  })
})
