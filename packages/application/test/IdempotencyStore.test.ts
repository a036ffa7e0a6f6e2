// The IdempotencyStore port in memory (SPEC 9): a key's first request claims it in its transaction and stores its
// response there; a repeat with the same body replays it, another body conflicts, and a repeat while the first
// still runs is told so. A claim dies with its transaction, and so does a response it did not commit.
import { describe, expect, it } from "@effect/vitest"
import { FeePlan, type PixKey, type Timestamp } from "@fatura/domain"
import { Deferred, Effect, Exit, Fiber } from "effect"
import { CompanyRepository } from "../src/companies/CompanyRepository.js"
import { type IdempotencyScope, IdempotencyStore } from "../src/platform/IdempotencyStore.js"
import { Transactions } from "../src/platform/Transactions.js"
import * as InMemoryPorts from "../src/testing/InMemoryPorts.js"

const now = "2026-03-10T15:00:00.000000Z" as Timestamp.Timestamp

const scope: IdempotencyScope = {
  principal: "checkout 8f14e45f",
  companyId: null,
  endpoint: "POST /api/v2/public/invoices/:secureId/pay",
  key: "pedido-7"
}

const created = { status: 201, body: '{"id":"1"}' }

describe("IdempotencyStore (in memory)", () => {
  it.effect("keeps the first fingerprint key offered, whoever asks and however often", () =>
    Effect.gen(function* () {
      const store = yield* IdempotencyStore
      expect(yield* store.fingerprintKey("candidate-a")).toBe("candidate-a")
      expect(yield* store.fingerprintKey("candidate-b")).toBe("candidate-a")
    }).pipe(Effect.provide(InMemoryPorts.layer))
  )

  it.effect("a claimed key stores its response; the same body replays it, another body conflicts", () =>
    Effect.gen(function* () {
      const store = yield* IdempotencyStore
      const { withTransaction } = yield* Transactions
      const first = yield* withTransaction(
        Effect.gen(function* () {
          const claim = yield* store.claim(scope, "hash-a")
          yield* store.complete(scope, "hash-a", created, now)
          return claim
        })
      )
      expect(first).toEqual({ _tag: "Claimed" })
      expect(yield* withTransaction(store.claim(scope, "hash-a"))).toEqual({ _tag: "Replay", response: created })
      expect(yield* withTransaction(store.claim(scope, "hash-b"))).toEqual({ _tag: "Conflict" })
      // The scope is who, where and which key: change any of them and the key is new.
      for (const other of [
        { ...scope, principal: "checkout c9f0f895" },
        { ...scope, endpoint: "POST /api/v2/invoices" },
        { ...scope, key: "pedido-8" }
      ]) {
        expect(yield* withTransaction(store.claim(other, "hash-a"))).toEqual({ _tag: "Claimed" })
      }
    }).pipe(Effect.provide(InMemoryPorts.layer))
  )

  it.effect("while a transaction holds the key, a repeat is in progress; once it fails, the key is free", () =>
    Effect.gen(function* () {
      const store = yield* IdempotencyStore
      const { withTransaction } = yield* Transactions
      const claimed = yield* Deferred.make<void>()
      const finish = yield* Deferred.make<void>()
      const holder = yield* Effect.forkChild(
        withTransaction(
          Effect.gen(function* () {
            yield* store.claim(scope, "hash-a")
            yield* store.complete(scope, "hash-a", created, now)
            yield* Deferred.succeed(claimed, undefined)
            yield* Deferred.await(finish)
            return yield* Effect.fail("the request failed after storing its response")
          })
        )
      )
      yield* Deferred.await(claimed)
      expect(yield* withTransaction(store.claim(scope, "hash-a"))).toEqual({ _tag: "InProgress" })
      yield* Deferred.succeed(finish, undefined)
      expect(Exit.isFailure(yield* Fiber.await(holder))).toBe(true)
      expect(yield* withTransaction(store.claim(scope, "hash-a"))).toEqual({ _tag: "Claimed" })
    }).pipe(Effect.provide(InMemoryPorts.layer))
  )

  it.effect("a claim lasts only as long as its transaction, interrupted or not", () =>
    Effect.gen(function* () {
      const store = yield* IdempotencyStore
      const { withTransaction } = yield* Transactions
      const claimed = yield* Deferred.make<void>()
      const holder = yield* Effect.forkChild(
        withTransaction(
          store
            .claim(scope, "hash-a")
            .pipe(Effect.andThen(Deferred.succeed(claimed, undefined)), Effect.andThen(Effect.never))
        )
      )
      yield* Deferred.await(claimed)
      yield* Fiber.interrupt(holder)
      expect(yield* withTransaction(store.claim(scope, "hash-a"))).toEqual({ _tag: "Claimed" })
    }).pipe(Effect.provide(InMemoryPorts.layer))
  )

  it.effect("the response is stored with the request's own changes: a request that fails stores neither", () =>
    Effect.gen(function* () {
      const store = yield* IdempotencyStore
      const companies = yield* CompanyRepository
      const { withTransaction } = yield* Transactions
      const failed = yield* Effect.exit(
        withTransaction(
          Effect.gen(function* () {
            yield* store.claim(scope, "hash-a")
            const company = yield* companies.create({
              cnpj: "11222333000181",
              corporateReason: "Loja Exemplo Ltda",
              fantasyName: "Loja Exemplo",
              email: "loja@example.com",
              pixKey: "loja@example.com" as PixKey.PixKey,
              feePlan: FeePlan.defaultFeePlan,
              isCustomFeePlan: false,
              now
            })
            yield* store.complete({ ...scope, companyId: company.id }, "hash-a", created, now)
            return yield* Effect.fail("a later step failed")
          })
        )
      )
      expect(Exit.isFailure(failed)).toBe(true)
      expect(yield* companies.count).toBe(0)
      expect(yield* withTransaction(store.claim(scope, "hash-a"))).toEqual({ _tag: "Claimed" })
    }).pipe(Effect.provide(InMemoryPorts.layer))
  )
})
