// The WebhookEndpointRepository port in memory: endpoints per company and mode, added under the company's lock.
import { Effect, Layer } from "effect"
import { type Endpoint, WebhookEndpointRepository } from "../postbacks/WebhookEndpointRepository.js"
import { companyLock } from "./InMemoryCompanyRepository.js"
import { InMemoryDatabase, violated } from "./InMemoryDatabase.js"
import { put, type Tables, type WebhookEndpointRow } from "./InMemoryTables.js"

const toEndpoint = ({ deletedAt: _, ...endpoint }: WebhookEndpointRow): Endpoint => endpoint

/** The company's endpoints of `mode` that are not deleted, oldest first (ties by id), as the SQL adapters order them. */
export const subscribedOf = (tables: Tables, companyId: number, mode: string): ReadonlyArray<WebhookEndpointRow> =>
  [...tables.webhookEndpoints.values()]
    .filter((row) => row.companyId === companyId && row.mode === mode && row.deletedAt === null)
    .sort((a, b) => (a.createdAt === b.createdAt ? a.id.localeCompare(b.id) : a.createdAt < b.createdAt ? -1 : 1))

export const layer = Layer.effect(
  WebhookEndpointRepository,
  Effect.gen(function* () {
    const database = yield* InMemoryDatabase

    return WebhookEndpointRepository.of({
      add: (endpoint, atMost) =>
        database.statement(
          Effect.gen(function* () {
            yield* database.lock(companyLock(endpoint.companyId))
            const clash = yield* database.read((tables) =>
              tables.webhookEndpoints.has(endpoint.id)
                ? "webhook_endpoints_pkey"
                : !tables.companies.has(endpoint.companyId)
                  ? "webhook_endpoints_company_id_fkey"
                  : undefined
            )
            if (clash !== undefined) return yield* violated(clash, `endpoint ${endpoint.id} cannot be added`)
            const count = yield* database.read(
              (tables) => subscribedOf(tables, endpoint.companyId, endpoint.mode).length
            )
            if (count >= atMost) return false
            yield* database.write(put("webhookEndpoints", endpoint.id, { ...endpoint, deletedAt: null }))
            return true
          })
        ),

      list: (companyId, mode) => database.read((tables) => subscribedOf(tables, companyId, mode).map(toEndpoint)),

      remove: (companyId, mode, endpointId, at) =>
        database.statement(
          Effect.gen(function* () {
            yield* database.lock(`webhook endpoints ${endpointId}`)
            const row = yield* database.read((tables) => tables.webhookEndpoints.get(endpointId))
            if (row === undefined || row.companyId !== companyId || row.mode !== mode || row.deletedAt !== null) {
              return false
            }
            yield* database.write(put("webhookEndpoints", endpointId, { ...row, deletedAt: at }))
            return true
          })
        )
    })
  })
)
