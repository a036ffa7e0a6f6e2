// `pnpm test:reliability`: the built server as a real process on the local Postgres, under faults — killed,
// its database stopped, fed hostile input, asked for other companies' objects — and, last, a scan of every
// database, log and event the suite produced for the card numbers and security codes it sent.
// The scenarios run in this order, one at a time; the outage stops a cluster of the suite's own, which the card-data
// scan still reads before it is removed.
import { afterAll } from "vitest"
import { bankCrashScenario } from "./BankCrash.js"
import { cardDataScenario } from "./CardData.js"
import { crashScenario } from "./Crash.js"
import { databaseRestartScenario } from "./DatabaseRestart.js"
import { hostileInputScenario } from "./HostileInput.js"
import { cleanUp } from "./support/Cluster.js"
import { savePrinted } from "./support/Service.js"
import { tenancyScenario } from "./Tenancy.js"
import { withdrawalCrashScenario } from "./WithdrawalCrash.js"

afterAll(async () => {
  savePrinted()
  await cleanUp()
})

crashScenario()
withdrawalCrashScenario()
bankCrashScenario()
databaseRestartScenario()
tenancyScenario()
hostileInputScenario()
cardDataScenario()
