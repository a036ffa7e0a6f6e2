// The servers a suite starts in its `beforeAll` and stops in its `afterAll`. Each is handed back as an object whose
// fields the `beforeAll` fills in: the suite's tests read them (`suite.app`), what runs before them must not.
import { afterAll, afterEach, beforeAll } from "vitest"
import type { gatedAcquirer } from "./GatedAcquirer.js"
import type { InMemory } from "./InMemoryServices.js"
import { startApp, type TestApp } from "./TestApp.js"
import type { TestDatabase } from "./TestDatabases.js"

/** A server over `database`, and a company registered on it: its secret key and its id. */
export interface AppWithCompany {
  readonly app: TestApp
  readonly key: string
  readonly companyId: number
}

export const appWithCompany = (database: TestDatabase): AppWithCompany => {
  const suite = {} as { app: TestApp; key: string; companyId: number }
  beforeAll(async () => {
    suite.app = await startApp(database)
    const registered = await suite.app.registerCompany()
    suite.key = registered.secretKey
    suite.companyId = registered.company.id
  })
  afterAll(() => suite.app.stop())
  return suite
}

/**
 * A server over `database` whose card charges go to `acquirer`, its gate opened again after each test: a test that
 * failed with the gate closed leaves no charge waiting for the next one.
 */
export const appChargingThrough = (
  database: TestDatabase | InMemory,
  acquirer: ReturnType<typeof gatedAcquirer>
): { readonly app: TestApp } => {
  const suite = {} as { app: TestApp }
  beforeAll(async () => {
    suite.app = await startApp(database, { cardAcquirer: acquirer.layer })
  })
  afterAll(() => suite.app.stop())
  afterEach(() => acquirer.open())
  return suite
}
