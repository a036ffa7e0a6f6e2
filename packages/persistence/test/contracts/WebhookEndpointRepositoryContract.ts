// The WebhookEndpointRepository contract, as the endpoints API relies on it (SPEC 13.5): endpoints per company and
// mode, oldest first; at most so many of them, also when adds race; a deleted one gone from the list, once.
import { expect } from "@effect/vitest"
import { WebhookEndpointRepository } from "@fatura/application"
import { Effect } from "effect"
import { aCompany, anEndpoint, at } from "../support/Fixtures.js"
import type { Contract } from "../support/TestDatabases.js"

export const webhookEndpointRepositoryContract: Contract = (it) => {
  it.effect("lists a company's endpoints of one mode, oldest first, as they were added", () =>
    Effect.gen(function* () {
      const endpoints = yield* WebhookEndpointRepository
      const company = yield* aCompany()
      const other = yield* aCompany()
      const later = yield* anEndpoint(company, { createdAt: at(60), events: ["invoice.paid", "invoice.refunded"] })
      const first = yield* anEndpoint(company, { createdAt: at(0), url: "https://hooks.example/a?b=c" })
      const live = yield* anEndpoint(company, { mode: "live", events: ["invoice.*"] })
      yield* anEndpoint(other)

      expect(yield* endpoints.list(company.id, "test")).toEqual([first, later])
      expect(yield* endpoints.list(company.id, "live")).toEqual([live])
      expect(yield* endpoints.list(other.id, "live")).toEqual([])
    })
  )

  it.effect("adds no more than the most a company may have in a mode; a deletion makes room", () =>
    Effect.gen(function* () {
      const endpoints = yield* WebhookEndpointRepository
      const company = yield* aCompany()
      const [first, second] = yield* Effect.forEach([0, 1], (n) => anEndpoint(company, { createdAt: at(n) }))
      yield* anEndpoint(company, { mode: "live" })
      const third = { ...first!, id: `${first!.id}-3`, createdAt: at(2) }
      // Two in test mode already: the live one is not counted.
      expect(yield* endpoints.add(third, 2)).toBe(false)
      expect(yield* endpoints.list(company.id, "test")).toHaveLength(2)
      expect(yield* endpoints.remove(company.id, "test", first!.id, at(3))).toBe(true)
      expect(yield* endpoints.add(third, 2)).toBe(true)
      expect(yield* endpoints.list(company.id, "test")).toEqual([second, third])
    })
  )

  it.effect("never adds one too many when adds of one company race", () =>
    Effect.gen(function* () {
      const endpoints = yield* WebhookEndpointRepository
      const company = yield* aCompany()
      const template = yield* anEndpoint(company)
      const added = yield* Effect.forEach(
        Array.from({ length: 8 }, (_, n) => ({ ...template, id: `${template.id}-${n}`, createdAt: at(n + 1) })),
        (endpoint) => endpoints.add(endpoint, 4),
        { concurrency: "unbounded" }
      )
      expect(added.filter(Boolean)).toHaveLength(3)
      expect(yield* endpoints.list(company.id, "test")).toHaveLength(4)
    })
  )

  it.effect("deletes an endpoint once, and only the company's own of the mode asked", () =>
    Effect.gen(function* () {
      const endpoints = yield* WebhookEndpointRepository
      const company = yield* aCompany()
      const other = yield* aCompany()
      const endpoint = yield* anEndpoint(company)

      expect(yield* endpoints.remove(other.id, "test", endpoint.id, at(1))).toBe(false)
      expect(yield* endpoints.remove(company.id, "live", endpoint.id, at(1))).toBe(false)
      expect(yield* endpoints.remove(company.id, "test", "we_unknown", at(1))).toBe(false)
      expect(yield* endpoints.list(company.id, "test")).toEqual([endpoint])

      expect(yield* endpoints.remove(company.id, "test", endpoint.id, at(1))).toBe(true)
      expect(yield* endpoints.remove(company.id, "test", endpoint.id, at(2))).toBe(false)
      expect(yield* endpoints.list(company.id, "test")).toEqual([])
    })
  )
}
