// The values the API Pix writes, read into the domain's: amounts into cents without floating point, RFC 3339
// instants of any precision and offset into Timestamps; and the txid of an invoice.

import { describe, expect, it } from "@effect/vitest"
import { Cents, Timestamp } from "@fatura/domain"
import { Option, Schema } from "effect"
import * as fc from "fast-check"
import { propertyRuns } from "../../../scripts/property-tests/settings.mjs"
import * as PixApi from "../src/index.js"
import * as PixAmount from "../src/PixAmount.js"
import * as Rfc3339 from "../src/Rfc3339.js"

describe("PixAmount", () => {
  it.each([
    [0, "0.00"],
    [1, "0.01"],
    [10, "0.10"],
    [12_345, "123.45"],
    [999_999_999_999, "9999999999.99"]
  ])("writes %i cents as %s and reads it back", (cents, text) => {
    expect(PixAmount.fromCents(Cents.make(cents))).toBe(text)
    expect(PixAmount.toCents(text)).toEqual(Option.some(cents))
  })

  it.each(["1", "1.5", "1.505", "1,00", "-1.00", ".50", "12345678901.00", " 1.00", "1e2.00"])("refuses %s", (text) => {
    expect(PixAmount.toCents(text)).toEqual(Option.none())
  })

  it("reads back every amount it writes, to the cent", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999_999 }), (cents) => {
        expect(PixAmount.toCents(PixAmount.fromCents(Cents.make(cents)))).toEqual(Option.some(cents))
      }),
      { numRuns: propertyRuns(1_000) }
    )
  })

  it("decodes as a schema, failing on what is not an amount", () => {
    expect(Schema.decodeUnknownSync(PixAmount.CentsFromAmount)("37.00")).toBe(3_700)
    expect(() => Schema.decodeUnknownSync(PixAmount.CentsFromAmount)("37")).toThrow(/an amount such as 123.45/)
  })
})

describe("Rfc3339.toTimestamp", () => {
  it.each([
    ["2026-11-22T01:47:15Z", "2026-11-22T01:47:15.000000Z"],
    ["2026-11-22T01:47:15.1Z", "2026-11-22T01:47:15.100000Z"],
    ["2026-11-22T01:47:15.123Z", "2026-11-22T01:47:15.123000Z"],
    ["2026-11-22T01:47:15.123456Z", "2026-11-22T01:47:15.123456Z"],
    // Past the microsecond: dropped, the instant floored.
    ["2026-11-22T01:47:15.123456789Z", "2026-11-22T01:47:15.123456Z"],
    ["2026-11-21T22:47:15.5-03:00", "2026-11-22T01:47:15.500000Z"],
    ["2026-11-22T07:17:15+05:30", "2026-11-22T01:47:15.000000Z"],
    ["2026-01-01T00:30:00+01:00", "2025-12-31T23:30:00.000000Z"],
    ["2028-02-29t12:00:00z", "2028-02-29T12:00:00.000000Z"],
    ["2016-12-31T23:59:60Z", "2016-12-31T23:59:59.999999Z"]
  ])("reads %s as %s", (text, timestamp) => {
    expect(Rfc3339.toTimestamp(text)).toEqual(Option.some(timestamp))
  })

  it.each([
    "2026-11-22",
    "2026-11-22T01:47:15",
    "2026-11-22 01:47:15Z",
    "2026-02-29T00:00:00Z",
    "2026-11-31T00:00:00Z",
    "2026-13-01T00:00:00Z",
    "2026-11-22T24:00:00Z",
    "2026-11-22T01:60:00Z",
    "2026-11-22T01:47:15+24:00",
    "2026-11-22T01:47:15.Z",
    "1763776035"
  ])("refuses %s", (text) => {
    expect(Rfc3339.toTimestamp(text)).toEqual(Option.none())
  })

  it("reads the instant Date reads, at any offset, keeping the microseconds", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2100, 0, 1) }),
        fc.integer({ min: 0, max: 999 }),
        fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
        (millis, extraMicros, offsetMinutes) => {
          const local = new Date(millis + offsetMinutes * 60_000).toISOString().slice(0, 23)
          const sign = offsetMinutes < 0 ? "-" : "+"
          const offset = `${sign}${String(Math.floor(Math.abs(offsetMinutes) / 60)).padStart(2, "0")}:${String(Math.abs(offsetMinutes) % 60).padStart(2, "0")}`
          const text = `${local}${String(extraMicros).padStart(3, "0")}${offset}`
          const read = Option.getOrThrow(Rfc3339.toTimestamp(text))
          expect(Timestamp.toEpochMicros(read)).toBe(BigInt(millis) * 1000n + BigInt(extraMicros))
        }
      ),
      { numRuns: propertyRuns(1_000) }
    )
  })
})

describe("txidOf", () => {
  it("is the invoice's secureId without dashes: 32 letters and digits, the same for a retry", () => {
    const secureId = "0f9c2a8e-5b1d-4c3e-9a7f-2d6b8e1c4a90"
    expect(PixApi.txidOf(secureId)).toBe("0f9c2a8e5b1d4c3e9a7f2d6b8e1c4a90")
    expect(PixApi.txidOf(secureId)).toMatch(/^[a-zA-Z0-9]{26,35}$/)
    expect(PixApi.txidOf(secureId)).toBe(PixApi.txidOf(secureId))
  })
})
