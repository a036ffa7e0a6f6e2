// The WebhookEndpointRepository contract on every implementation: the in-memory one, PGlite, and Postgres when given.
import { webhookEndpointRepositoryContract } from "./contracts/WebhookEndpointRepositoryContract.js"
import { inMemory, onEachDatabase } from "./support/TestDatabases.js"

inMemory("WebhookEndpointRepository", webhookEndpointRepositoryContract)
onEachDatabase("WebhookEndpointRepository", webhookEndpointRepositoryContract)
