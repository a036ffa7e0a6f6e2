import { receivableRepositoryContract } from "./contracts/ReceivableRepositoryContract.js"
import { inMemory, onEachDatabase } from "./support/TestDatabases.js"

inMemory("ReceivableRepository", receivableRepositoryContract)
onEachDatabase("ReceivableRepository", receivableRepositoryContract)
