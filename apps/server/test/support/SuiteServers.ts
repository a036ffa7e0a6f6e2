// The servers a suite starts in its `beforeAll` and stops in its `afterAll`. Each is handed back as an object whose
// fields the `beforeAll` fills in: the suite's tests read them (`suite.app`), what runs before them must not.
import { afterAll, afterEach, beforeAll } from "vitest"
import type { gatedAcquirer } from "./GatedAcquirer.js"
import type { InMemory } from "./InMemoryServices.js"
import { startApp, type TestApp } from "./TestApp.js"
import { type TestDatabase, testDatabases } from "./TestDatabases.js"
import { countingStatements, isTransactionControl, type WireCounter } from "./WireCounter.js"

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

/**
 * A server over Postgres, which TEST_DATABASE_URL names (the server project runs `*.postgres.test.ts` only when it is
 * given), its statements counted on Postgres's wire (WireCounter.ts), and a company's secret key. `statementsDuring`
 * is what `action` sent that reads or writes: not the BEGIN and COMMIT around a transaction.
 */
export const appCountedOnTheWire = (testFile: string) => {
  const postgres = testDatabases.find((database) => database.name === "Postgres")
  if (postgres === undefined)
    throw new Error(`${testFile} needs TEST_DATABASE_URL: a Postgres server whose wire it can count statements on`)
  let counter: WireCounter
  const suite = {
    statementsDuring: async (action: () => Promise<unknown>) =>
      (await counter.statementsDuring(action)).filter((statement) => !isTransactionControl(statement))
  } as {
    app: TestApp
    key: string
    readonly statementsDuring: (action: () => Promise<unknown>) => Promise<Array<string>>
  }
  beforeAll(async () => {
    counter = await countingStatements(postgres)
    suite.app = await startApp(counter.database)
    suite.key = (await suite.app.registerCompany()).secretKey
  })
  afterAll(async () => {
    await suite.app.stop()
    await counter.close()
  })
  return suite
}
