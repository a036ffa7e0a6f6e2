// The per-address token bucket of the public endpoints.
import { describe, expect, it } from "vitest"
import * as ClientRateLimit from "../src/ClientRateLimit.js"

describe("ClientRateLimit", () => {
  it("allows a burst, then refuses with how long to wait, then refills", () => {
    const limit = ClientRateLimit.make({ burst: 3, perSecond: 1 })
    expect([0, 0, 0].map((at) => limit("a", at).allowed)).toEqual([true, true, true])
    expect(limit("a", 0)).toEqual({ allowed: false, retryAfterSeconds: 1 })
    expect(limit("a", 500).allowed).toBe(false)
    expect(limit("a", 1_000).allowed).toBe(true)
    expect(limit("a", 1_000).allowed).toBe(false)
  })

  it("keeps one bucket per address", () => {
    const limit = ClientRateLimit.make({ burst: 1, perSecond: 1 })
    expect(limit("a", 0).allowed).toBe(true)
    expect(limit("a", 0).allowed).toBe(false)
    expect(limit("b", 0).allowed).toBe(true)
  })

  it("never holds more than the burst, however long a client was away", () => {
    const limit = ClientRateLimit.make({ burst: 2, perSecond: 10 })
    limit("a", 0)
    const later = 3_600_000
    expect([later, later, later].map((at) => limit("a", at).allowed)).toEqual([true, true, false])
  })

  it("says to wait longer when the bucket refills slowly", () => {
    const limit = ClientRateLimit.make({ burst: 1, perSecond: 0.25 })
    limit("a", 0)
    expect(limit("a", 0)).toEqual({ allowed: false, retryAfterSeconds: 4 })
  })
})
