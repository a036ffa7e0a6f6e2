// The LedgerEntryRepository contract on every implementation: the in-memory one, PGlite, and Postgres when given.
import { ledgerEntryRepositoryContract } from "./contracts/LedgerEntryRepositoryContract.js"
import { inMemory, onEachDatabase } from "./support/TestDatabases.js"

inMemory("LedgerEntryRepository", ledgerEntryRepositoryContract)
onEachDatabase("LedgerEntryRepository", ledgerEntryRepositoryContract)
