// The EventOutbox contract on every implementation: the in-memory one, PGlite, and Postgres when it is given.
import { eventOutboxContract } from "./contracts/EventOutboxContract.js"
import { inMemory, onEachDatabase } from "./support/TestDatabases.js"

inMemory("EventOutbox", eventOutboxContract)
onEachDatabase("EventOutbox", eventOutboxContract)
