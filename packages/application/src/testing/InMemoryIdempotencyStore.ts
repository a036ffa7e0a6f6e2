// The IdempotencyStore port in memory: a claim is a lock of the claiming transaction, gone when it ends however it
// ends, and a stored response is written in that transaction, with the request's own changes.
import { Effect, Layer } from "effect"
import { type Claim, type IdempotencyScope, IdempotencyStore } from "../IdempotencyStore.js"
import { InMemoryDatabase, violated } from "./InMemoryDatabase.js"
import { put } from "./InMemoryTables.js"

const keyOf = (scope: IdempotencyScope) => JSON.stringify([scope.principal, scope.endpoint, scope.key])

export const layer = Layer.effect(
  IdempotencyStore,
  Effect.gen(function* () {
    const database = yield* InMemoryDatabase

    return IdempotencyStore.of({
      claim: (scope, requestHash) =>
        database.statement(
          Effect.gen(function* () {
            if (!(yield* database.tryLock(`idempotency ${keyOf(scope)}`))) return { _tag: "InProgress" } satisfies Claim
            const stored = yield* database.read((tables) => tables.idempotencyKeys.get(keyOf(scope)))
            if (stored === undefined) return { _tag: "Claimed" } satisfies Claim
            if (stored.requestHash !== requestHash) return { _tag: "Conflict" } satisfies Claim
            return { _tag: "Replay", response: { status: stored.status, body: stored.body } } satisfies Claim
          })
        ),

      complete: (scope, requestHash, response, now) =>
        database.statement(
          Effect.gen(function* () {
            const clash = yield* database.read((tables) =>
              tables.idempotencyKeys.has(keyOf(scope))
                ? "idempotency_keys_pkey"
                : scope.companyId !== null && !tables.companies.has(scope.companyId)
                  ? "idempotency_keys_company_id_fkey"
                  : undefined
            )
            if (clash !== undefined) return yield* violated(clash, "the response cannot be stored")
            yield* database.write(
              put("idempotencyKeys", keyOf(scope), {
                principal: scope.principal,
                companyId: scope.companyId,
                endpoint: scope.endpoint,
                key: scope.key,
                requestHash,
                status: response.status,
                body: response.body,
                createdAt: now
              })
            )
          })
        )
    })
  })
)
