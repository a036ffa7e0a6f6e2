// A PSP for one test file: started in this process on a free port, with a state directory of its own, quiet below
// warnings; and the clients a test needs (with the PSP's client certificate, without one, with a foreign one).
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Exit, References, Scope } from "effect"
import * as PixPsp from "../../src/PixPsp.js"
import type { Settings } from "../../src/PspSettings.js"
import { ApiPixClient } from "./ApiPixClient.js"
import type { ApiPixContract } from "./ApiPixContract.js"

export interface TestPsp extends PixPsp.RunningPsp {
  /** A client with the PSP's own client certificate, not yet authenticated. */
  readonly client: (contract?: ApiPixContract) => ApiPixClient
  /** A client with no certificate, as a payer's app or a developer's browser. */
  readonly anonymousClient: (contract?: ApiPixContract) => ApiPixClient
  /** A client with the PSP's certificate and a token granted for every scope. */
  readonly authenticatedClient: (contract?: ApiPixContract) => Promise<ApiPixClient>
  /** Stops it, and removes its state directory unless the test gave one. */
  readonly stop: () => Promise<void>
}

export const freshDir = () => mkdtempSync(join(tmpdir(), "pix-psp-test-"))

export const testSettings = (overrides: Partial<Settings> = {}): Settings => ({
  dir: overrides.dir ?? freshDir(),
  host: "127.0.0.1",
  port: 0,
  tokenTtlSeconds: 3600,
  refundDelayMs: 100,
  merchantName: "Fatura Teste",
  merchantCity: "São Paulo",
  merchantCnpj: "12345678000195",
  merchantStreet: "Avenida Paulista, 1000",
  merchantState: "SP",
  merchantPostalCode: "01310100",
  ...overrides
})

export const startPsp = async (overrides: Partial<Settings> = {}): Promise<TestPsp> => {
  const scope = Effect.runSync(Scope.make())
  const settings = testSettings(overrides)
  const psp = await Effect.runPromise(
    PixPsp.start(settings).pipe(Scope.provide(scope), Effect.provideService(References.MinimumLogLevel, "Warn"))
  )
  const client = (contract?: ApiPixContract) =>
    new ApiPixClient(
      psp.baseUrl,
      { ca: psp.state.ca.certificate, certificate: { cert: psp.state.client.certificate, key: psp.state.client.key } },
      contract
    )
  return {
    ...psp,
    client,
    anonymousClient: (contract) => new ApiPixClient(psp.baseUrl, { ca: psp.state.ca.certificate }, contract),
    authenticatedClient: async (contract) => {
      const authenticated = client(contract)
      const answer = await authenticated.authenticate(
        psp.state.credentials.clientId,
        psp.state.credentials.clientSecret
      )
      if (answer.status !== 200) throw new Error(`no token: ${answer.status} ${answer.text}`)
      return authenticated
    },
    stop: async () => {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      if (overrides.dir === undefined) rmSync(settings.dir, { recursive: true, force: true })
    }
  }
}
