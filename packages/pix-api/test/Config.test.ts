// The settings read from the environment, under the names the local PSP prints for its clients.
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Redacted } from "effect"
import * as PixApi from "../src/index.js"
import { startPsp } from "./support/LocalPsp.js"

const read = (env: Record<string, string>) =>
  PixApi.config.pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env })))

describe("config", () => {
  it.live("reads the FATURA_PIX_* lines the local PSP prints, with a timeout of 10 s unless told", () =>
    Effect.gen(function* () {
      const psp = yield* Effect.acquireRelease(
        Effect.promise(() => startPsp()),
        (started) => Effect.promise(() => started.stop())
      )
      const env = Object.fromEntries(psp.clientSettings)
      const settings = yield* read(env)
      expect({ ...settings, clientSecret: Redacted.value(settings.clientSecret) }).toEqual({
        apiUrl: psp.baseUrl,
        oauthUrl: `${psp.baseUrl}/oauth/token`,
        clientId: psp.state.credentials.clientId,
        clientSecret: psp.state.credentials.clientSecret,
        certificate: psp.state.paths.client,
        certificateKey: psp.state.paths.clientKey,
        ca: psp.state.paths.ca,
        pixKey: psp.state.credentials.pixKey,
        timeout: Duration.seconds(10)
      })
      // The secret does not show when the settings are printed.
      expect(String(settings.clientSecret)).not.toContain(psp.state.credentials.clientSecret)
      expect(JSON.stringify(settings)).not.toContain(psp.state.credentials.clientSecret)

      const timed = yield* read({ ...env, FATURA_PIX_TIMEOUT_MS: "2500" })
      expect(timed.timeout).toEqual(Duration.millis(2_500))
    }).pipe(Effect.scoped)
  )

  it.effect("refuses what is missing, a URL that is not https, and a timeout that is not a whole number of ms", () =>
    Effect.gen(function* () {
      const env = {
        FATURA_PIX_API_URL: "https://pix.example.com/api/v2",
        FATURA_PIX_OAUTH_URL: "https://pix.example.com/oauth/token",
        FATURA_PIX_CLIENT_ID: "client",
        FATURA_PIX_CLIENT_SECRET: "secret",
        FATURA_PIX_CERT: "/etc/fatura/client.pem",
        FATURA_PIX_CERT_KEY: "/etc/fatura/client-key.pem",
        FATURA_PIX_CA: "/etc/fatura/ca.pem",
        FATURA_PIX_KEY: "pix@example.com"
      }
      expect((yield* read(env)).apiUrl).toBe("https://pix.example.com/api/v2")
      const { FATURA_PIX_KEY: _, ...withoutKey } = env
      for (const wrong of [
        withoutKey,
        { ...env, FATURA_PIX_API_URL: "http://pix.example.com" },
        { ...env, FATURA_PIX_OAUTH_URL: "pix.example.com/oauth" },
        { ...env, FATURA_PIX_TIMEOUT_MS: "1.5" },
        { ...env, FATURA_PIX_TIMEOUT_MS: "0" }
      ]) {
        expect((yield* Effect.flip(read(wrong)))._tag).toBe("ConfigError")
      }
    })
  )
})
