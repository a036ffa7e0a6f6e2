// The WithdrawalRepository contract on every implementation: the in-memory one, PGlite, and Postgres when given.
import { withdrawalRepositoryContract } from "./contracts/WithdrawalRepositoryContract.js"
import { inMemory, onEachDatabase } from "./support/TestDatabases.js"

inMemory("WithdrawalRepository", withdrawalRepositoryContract)
onEachDatabase("WithdrawalRepository", withdrawalRepositoryContract)
