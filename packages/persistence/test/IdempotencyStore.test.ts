// The IdempotencyStore contract, as the HTTP edge's Idempotency-Key handling relies on it: inside its transaction a
// request claims its key; once its response is stored and committed, the same body replays it and another body is a
// conflict; keys are scoped by principal and endpoint; a claim whose transaction rolls back leaves nothing behind;
// and, where two transactions can be open at once, a key held by a live one is in progress for the other.
import { randomUUID } from "node:crypto"
import { expect } from "@effect/vitest"
import { type IdempotencyScope, IdempotencyStore, Transactions } from "@fatura/application"
import type { Company } from "@fatura/domain"
import { Deferred, Effect, Fiber } from "effect"
import { aCompany, at } from "./support/Fixtures.js"
import { onEachDatabase } from "./support/TestDatabases.js"

const scopeOf = (company: Company.Company, changes: Partial<IdempotencyScope> = {}): IdempotencyScope => ({
  principal: `company ${company.id} test`,
  companyId: company.id,
  endpoint: "POST /api/v2/invoices",
  key: randomUUID(),
  ...changes
})

const created = { status: 201, body: '{"id":"inv_1"}' }

/** Claims the key in a transaction of its own and, when claimed, stores `response` in it, as a request does. */
const request = (scope: IdempotencyScope, requestHash: string, response = created) =>
  Effect.gen(function* () {
    const store = yield* IdempotencyStore
    const transactions = yield* Transactions
    return yield* transactions.withTransaction(
      Effect.gen(function* () {
        const claim = yield* store.claim(scope, requestHash)
        if (claim._tag === "Claimed") yield* store.complete(scope, requestHash, response, at(0))
        return claim
      })
    )
  })

onEachDatabase("IdempotencyStore", (it, database) => {
  it.effect("keeps the first fingerprint key offered for the whole deployment, whoever asks and however often", () =>
    Effect.gen(function* () {
      const store = yield* IdempotencyStore
      const first = yield* store.fingerprintKey("candidate-of-the-first-process")
      expect(first).toBe("candidate-of-the-first-process")
      // Processes starting together, each with its own candidate, all get the one kept.
      const others = yield* Effect.all(
        Array.from({ length: 4 }, (_, index) => store.fingerprintKey(`candidate-${index}`)),
        { concurrency: "unbounded" }
      )
      expect(others).toEqual([first, first, first, first])
    })
  )

  it.effect("claims a new key, then replays its stored response for the same body and refuses another body", () =>
    Effect.gen(function* () {
      const scope = scopeOf(yield* aCompany())

      expect(yield* request(scope, "hash-a")).toEqual({ _tag: "Claimed" })
      expect(yield* request(scope, "hash-a", { status: 500, body: "not stored" })).toEqual({
        _tag: "Replay",
        response: created
      })
      expect(yield* request(scope, "hash-b")).toEqual({ _tag: "Conflict" })
      // The conflict stored nothing: the first response still answers.
      expect(yield* request(scope, "hash-a")).toEqual({ _tag: "Replay", response: created })
    })
  )

  it.effect("scopes a key by principal and by endpoint", () =>
    Effect.gen(function* () {
      const company = yield* aCompany()
      const scope = scopeOf(company)
      yield* request(scope, "hash-a")

      const live = { ...scope, principal: `company ${company.id} live` }
      const checkout = { ...scope, principal: "checkout inv_1", companyId: null }
      const refund = { ...scope, endpoint: "POST /api/v2/invoices/refund" }
      for (const other of [live, checkout, refund]) {
        expect(yield* request(other, "hash-b", { status: 200, body: other.principal })).toEqual({ _tag: "Claimed" })
        expect(yield* request(other, "hash-b")).toEqual({
          _tag: "Replay",
          response: { status: 200, body: other.principal }
        })
      }
      expect(yield* request(scope, "hash-a")).toEqual({ _tag: "Replay", response: created })
    })
  )

  it.effect("leaves nothing of a claim whose transaction rolled back: the key is claimed anew", () =>
    Effect.gen(function* () {
      const store = yield* IdempotencyStore
      const transactions = yield* Transactions
      const scope = scopeOf(yield* aCompany())

      const failed = yield* transactions
        .withTransaction(
          Effect.gen(function* () {
            expect(yield* store.claim(scope, "hash-a")).toEqual({ _tag: "Claimed" })
            yield* store.complete(scope, "hash-a", created, at(0))
            return yield* Effect.fail("the request's own changes failed" as const)
          })
        )
        .pipe(Effect.flip)
      expect(failed).toBe("the request's own changes failed")

      expect(yield* request(scope, "hash-b")).toEqual({ _tag: "Claimed" })
    })
  )

  if (database.concurrent) {
    it.effect("answers in progress while another transaction holds the key, and replays once it committed", () =>
      Effect.gen(function* () {
        const store = yield* IdempotencyStore
        const transactions = yield* Transactions
        const scope = scopeOf(yield* aCompany())
        const claimed = yield* Deferred.make<void>()
        const finish = yield* Deferred.make<void>()

        const holder = yield* Effect.forkChild(
          transactions.withTransaction(
            Effect.gen(function* () {
              expect(yield* store.claim(scope, "hash-a")).toEqual({ _tag: "Claimed" })
              yield* Deferred.succeed(claimed, undefined)
              yield* Deferred.await(finish)
              yield* store.complete(scope, "hash-a", created, at(0))
            })
          )
        )
        yield* Deferred.await(claimed)

        expect(yield* request(scope, "hash-a")).toEqual({ _tag: "InProgress" })
        expect(yield* request(scope, "hash-b")).toEqual({ _tag: "InProgress" })
        yield* Deferred.succeed(finish, undefined)
        yield* Fiber.join(holder)
        expect(yield* request(scope, "hash-a")).toEqual({ _tag: "Replay", response: created })
      })
    )
  }

  it.effect(
    "leases a key outside any transaction: in progress until it runs out, then taken over where it got to",
    () =>
      Effect.gen(function* () {
        const store = yield* IdempotencyStore
        const scope = scopeOf(yield* aCompany())

        const first = yield* store.lease(scope, "hash-a", at(0), at(30))
        expect(first).toMatchObject({ _tag: "Leased", recoveryPoint: null })
        const token = first._tag === "Leased" ? first.token : ""
        expect(yield* store.lease(scope, "hash-a", at(10), at(40))).toEqual({ _tag: "InProgress" })
        expect(yield* store.lease(scope, "hash-b", at(10), at(40))).toEqual({ _tag: "Conflict" })
        expect(yield* store.checkpoint(scope, token, "charge ch_1")).toBe(true)

        // The holder outlived its lease: a repeat takes the key over, with where the holder got to, and the holder
        // can record nothing more.
        const second = yield* store.lease(scope, "hash-a", at(31), at(61))
        expect(second).toMatchObject({ _tag: "Leased", recoveryPoint: "charge ch_1" })
        const taken = second._tag === "Leased" ? second.token : ""
        expect(taken).not.toBe(token)
        expect(yield* store.checkpoint(scope, token, "charge ch_2")).toBe(false)
        expect(yield* store.finish(scope, token, { status: 500, body: "stale" })).toBe(false)

        expect(yield* store.finish(scope, taken, created)).toBe(true)
        expect(yield* store.lease(scope, "hash-a", at(100), at(130))).toEqual({ _tag: "Replay", response: created })
        expect(yield* store.lease(scope, "hash-b", at(100), at(130))).toEqual({ _tag: "Conflict" })
        // A finished lease can neither be released nor finished again.
        yield* store.release(scope, taken, at(101))
        expect(yield* store.finish(scope, taken, { status: 500, body: "again" })).toBe(false)
        expect(yield* store.lease(scope, "hash-a", at(102), at(132))).toEqual({ _tag: "Replay", response: created })
      })
  )

  it.effect("frees a released lease at once: for any body when it recorded nothing, else where it got to", () =>
    Effect.gen(function* () {
      const store = yield* IdempotencyStore
      const scope = scopeOf(yield* aCompany())
      const first = yield* store.lease(scope, "hash-a", at(0), at(30))
      const token = first._tag === "Leased" ? first.token : ""
      yield* store.release(scope, token, at(1))
      const second = yield* store.lease(scope, "hash-b", at(2), at(32))
      expect(second).toMatchObject({ _tag: "Leased", recoveryPoint: null })
      const again = second._tag === "Leased" ? second.token : ""
      yield* store.checkpoint(scope, again, "invoice 7")
      yield* store.release(scope, again, at(3))
      expect(yield* store.lease(scope, "hash-a", at(4), at(34))).toEqual({ _tag: "Conflict" })
      expect(yield* store.lease(scope, "hash-b", at(4), at(34))).toMatchObject({
        _tag: "Leased",
        recoveryPoint: "invoice 7"
      })
    })
  )

  it.effect("records a checkpoint with the transaction it is written in", () =>
    Effect.gen(function* () {
      const store = yield* IdempotencyStore
      const transactions = yield* Transactions
      const scope = scopeOf(yield* aCompany())
      const first = yield* store.lease(scope, "hash-a", at(0), at(30))
      const token = first._tag === "Leased" ? first.token : ""
      yield* transactions
        .withTransaction(Effect.andThen(store.checkpoint(scope, token, "rolled back"), Effect.fail("failure")))
        .pipe(Effect.ignore)
      yield* store.release(scope, token, at(1))
      expect(yield* store.lease(scope, "hash-a", at(2), at(32))).toMatchObject({ _tag: "Leased", recoveryPoint: null })
    })
  )
})
