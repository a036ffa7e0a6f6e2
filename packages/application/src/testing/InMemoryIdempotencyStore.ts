// The IdempotencyStore port in memory: a claim is a lock of the claiming transaction, gone when it ends however it
// ends, and a stored response is written in that transaction, with the request's own changes. A purge forgets the
// oldest responses; two purges at once share them out, as SKIP LOCKED does.
import { Effect, Layer } from "effect"
import { type Claim, type IdempotencyScope, IdempotencyStore } from "../IdempotencyStore.js"
import { InMemoryDatabase, violated } from "./InMemoryDatabase.js"
import { put, remove } from "./InMemoryTables.js"

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
        ),

      purge: (recordedBefore, limit) =>
        database.statement(
          Effect.gen(function* () {
            const old = yield* database.read((tables) =>
              [...tables.idempotencyKeys.entries()]
                .filter(([, row]) => row.createdAt < recordedBefore)
                .sort(([, a], [, b]) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0))
                .map(([key]) => key)
            )
            let forgotten = 0
            for (const key of old) {
              if (forgotten === limit) break
              // Another purge's row is left to it; one taken is read again, since it may have gone meanwhile.
              if (!(yield* database.tryLock(`idempotency_keys ${key}`))) continue
              if (!(yield* database.read((tables) => tables.idempotencyKeys.has(key)))) continue
              yield* database.write(remove("idempotencyKeys", key))
              forgotten += 1
            }
            return forgotten
          })
        )
    })
  })
)
