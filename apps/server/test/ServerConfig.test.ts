// SPEC 9 and 12.1: FATURA_IDEMPOTENCY_LEASE_SECONDS, the lease by which a request that calls a provider holds its
// Idempotency-Key — 60 s unless set, and never shorter than such a request can run; FATURA_CARD_RATE_LIMIT, the card
// tokenizations a minute per public token — 60 unless set, a whole number of at least one; FATURA_PIX_NOTIFICATION_CALLS,
// the PSP calls a second all pix notifications may make together; FATURA_METRICS_TOKEN, without which `/metrics` is not
// served; FATURA_IDEMPOTENCY_FINGERPRINT_KEY, the key of the fingerprints of card data.
import { ConfigProvider, Effect } from "effect"
import { describe, expect, it } from "vitest"
import * as ServerConfig from "../src/ServerConfig.js"

const loadOf =
  <A>(read: (config: ServerConfig.ServerConfig) => A) =>
  (env: Record<string, string>) =>
    ServerConfig.load.pipe(
      Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord(env)),
      Effect.map(read),
      Effect.mapError((error) => String(error)),
      Effect.result,
      Effect.runPromise
    )

const load = loadOf((config) => config.idempotencyLeaseSeconds)

const bcb = {
  FATURA_PIX_PROVIDER: "bcb",
  FATURA_PIX_API_URL: "https://psp.example/api",
  FATURA_PIX_OAUTH_URL: "https://psp.example/oauth/token",
  FATURA_PIX_CLIENT_ID: "client",
  FATURA_PIX_CLIENT_SECRET: "secret",
  FATURA_PIX_CERT: "/etc/fatura/cert.pem",
  FATURA_PIX_CERT_KEY: "/etc/fatura/key.pem",
  FATURA_PIX_CA: "/etc/fatura/ca.pem",
  FATURA_PIX_KEY: "11444777000161"
}

describe("FATURA_IDEMPOTENCY_LEASE_SECONDS", () => {
  it("is 60 unless set", async () => {
    expect(await load({})).toMatchObject({ success: 60 })
    expect(await load(bcb)).toMatchObject({ success: 60 })
  })

  it("takes a lease longer than a card charge may wait (20 s) and the request's statements (10 s)", async () => {
    expect(await load({ FATURA_IDEMPOTENCY_LEASE_SECONDS: "30" })).toMatchObject({ success: 30 })
    const refused = await load({ FATURA_IDEMPOTENCY_LEASE_SECONDS: "29" })
    expect(refused._tag).toBe("Failure")
    expect(String(refused._tag === "Failure" ? refused.failure : "")).toContain(
      "must be at least 30: longer than a request that calls a provider can run"
    )
  })

  it("with the API Pix, is longer than four exchanges with the PSP and the request's statements", async () => {
    expect(await load({ ...bcb, FATURA_IDEMPOTENCY_LEASE_SECONDS: "50" })).toMatchObject({ success: 50 })
    expect((await load({ ...bcb, FATURA_IDEMPOTENCY_LEASE_SECONDS: "49" }))._tag).toBe("Failure")
    const slowPsp = { ...bcb, FATURA_PIX_TIMEOUT_MS: "15000" }
    expect((await load({ ...slowPsp, FATURA_IDEMPOTENCY_LEASE_SECONDS: "69" }))._tag).toBe("Failure")
    expect(await load({ ...slowPsp, FATURA_IDEMPOTENCY_LEASE_SECONDS: "70" })).toMatchObject({ success: 70 })
  })

  it("is a whole number of seconds", async () => {
    expect((await load({ FATURA_IDEMPOTENCY_LEASE_SECONDS: "45.5" }))._tag).toBe("Failure")
    expect((await load({ FATURA_IDEMPOTENCY_LEASE_SECONDS: "a minute" }))._tag).toBe("Failure")
  })
})

describe("FATURA_CARD_RATE_LIMIT", () => {
  const loadCards = loadOf((config) => config.cardRateLimit)

  it("is 60 a minute unless set, and any whole number of at least one", async () => {
    expect(await loadCards({})).toMatchObject({ success: 60 })
    expect(await loadCards({ FATURA_CARD_RATE_LIMIT: "600" })).toMatchObject({ success: 600 })
    for (const refused of ["0", "-5", "1.5", "many"]) {
      expect((await loadCards({ FATURA_CARD_RATE_LIMIT: refused }))._tag, refused).toBe("Failure")
    }
  })
})

describe("FATURA_PIX_NOTIFICATION_CALLS", () => {
  const callsPerSecond = loadOf((config) => config.pixNotificationCallsPerSecond)

  it("is 5 a second unless set, and takes any whole number from 1", async () => {
    expect(await callsPerSecond(bcb)).toMatchObject({ success: 5 })
    expect(await callsPerSecond({ ...bcb, FATURA_PIX_NOTIFICATION_CALLS: "1" })).toMatchObject({ success: 1 })
    expect(await callsPerSecond({ ...bcb, FATURA_PIX_NOTIFICATION_CALLS: "40" })).toMatchObject({ success: 40 })
  })

  it("refuses none at all, a fraction or a word", async () => {
    for (const value of ["0", "-1", "2.5", "many"]) {
      expect((await callsPerSecond({ ...bcb, FATURA_PIX_NOTIFICATION_CALLS: value }))._tag, value).toBe("Failure")
    }
  })
})

describe("FATURA_METRICS_TOKEN", () => {
  const loadToken = loadOf((config) => config.metricsToken)

  it("is none unless set, or set empty: /metrics is then not served", async () => {
    expect(await loadToken({})).toMatchObject({ success: null })
    expect(await loadToken({ FATURA_METRICS_TOKEN: "" })).toMatchObject({ success: null })
  })

  it("takes a token of 16 printable characters or more, and refuses a guessable or unsendable one at start", async () => {
    const token = "0123456789abcdef"
    expect(await loadToken({ FATURA_METRICS_TOKEN: token })).toMatchObject({ success: token })
    for (const refused of ["0123456789abcde", "0123456789 abcdef", "0123456789abcdéf"]) {
      const result = await loadToken({ FATURA_METRICS_TOKEN: refused })
      expect(result._tag, refused).toBe("Failure")
      expect(String(result._tag === "Failure" ? result.failure : "")).toContain("at least 16 printable ASCII")
    }
  })
})

describe("FATURA_IDEMPOTENCY_FINGERPRINT_KEY", () => {
  const loadKey = loadOf((config) => config.idempotencyFingerprintKey)

  it("is none unless set, or set empty: the key the database keeps for the deployment is used", async () => {
    expect(await loadKey({})).toMatchObject({ success: null })
    expect(await loadKey({ FATURA_IDEMPOTENCY_FINGERPRINT_KEY: "" })).toMatchObject({ success: null })
  })

  it("takes a key of 32 printable characters or more, and refuses a shorter one at start", async () => {
    const key = "k".repeat(32)
    expect(await loadKey({ FATURA_IDEMPOTENCY_FINGERPRINT_KEY: key })).toMatchObject({ success: key })
    const refused = await loadKey({ FATURA_IDEMPOTENCY_FINGERPRINT_KEY: "k".repeat(31) })
    expect(refused._tag).toBe("Failure")
    expect(String(refused._tag === "Failure" ? refused.failure : "")).toContain("at least 32 printable ASCII")
  })
})
