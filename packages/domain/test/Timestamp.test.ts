import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { propertyRuns } from "../../../scripts/property-tests/settings.mjs"
import { Timestamp } from "../src/index.js"

describe("Timestamp", () => {
  it.each([
    { micros: 0n, timestamp: "1970-01-01T00:00:00.000000Z" },
    { micros: 1_500n, timestamp: "1970-01-01T00:00:00.001500Z" },
    { micros: -1n, timestamp: "1969-12-31T23:59:59.999999Z" },
    { micros: -500n, timestamp: "1969-12-31T23:59:59.999500Z" },
    { micros: -1_000_000n, timestamp: "1969-12-31T23:59:59.000000Z" },
    { micros: -2_208_988_800_000_000n, timestamp: "1900-01-01T00:00:00.000000Z" },
    { micros: 253_402_300_799_999_999n, timestamp: "9999-12-31T23:59:59.999999Z" }
  ])("writes $micros µs since the epoch as $timestamp", ({ micros, timestamp }) => {
    expect(Timestamp.fromEpochMicros(micros)).toBe(timestamp)
  })

  it("reads back every instant it writes, from 1900 to 9999", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -2_208_988_800_000_000n, max: 253_402_300_799_999_999n }), (micros) => {
        expect(Timestamp.toEpochMicros(Timestamp.fromEpochMicros(micros))).toBe(micros)
      }),
      { numRuns: propertyRuns(1_000) }
    )
  })

  it.each([
    { dateTime: "2026-03-10T15:00:00Z", timestamp: "2026-03-10T15:00:00.000000Z" },
    { dateTime: "2026-03-10T12:00:00.123456-03:00", timestamp: "2026-03-10T15:00:00.123456Z" },
    { dateTime: "2026-03-10t15:00:00.1+00:00", timestamp: "2026-03-10T15:00:00.100000Z" },
    { dateTime: "2026-03-11T00:30:00.000001+09:30", timestamp: "2026-03-10T15:00:00.000001Z" }
  ])("reads the date-time $dateTime as $timestamp", ({ dateTime, timestamp }) => {
    expect(Timestamp.fromDateTime(dateTime)).toBe(timestamp)
  })
})
