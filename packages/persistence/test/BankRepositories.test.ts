// The contracts of the bank's ports on every implementation: the in-memory ones, PGlite, and Postgres when given.
import { bankRepositoriesContract } from "./contracts/BankRepositoriesContract.js"
import { inMemory, onEachDatabase } from "./support/TestDatabases.js"

inMemory("the bank's repositories", bankRepositoriesContract)
onEachDatabase("the bank's repositories", bankRepositoriesContract)
