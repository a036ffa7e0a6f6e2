// The IdempotencyStore port in memory: a claim is a lock of the claiming transaction, gone when it ends however it
// ends, and a stored response is written in that transaction, with the request's own changes. A lease is a row
// without its response, held by its token until it runs out. A purge forgets the oldest responses; two purges at once
// share them out, as SKIP LOCKED does.
import { Effect, Layer } from "effect"
import { type Claim, type IdempotencyScope, IdempotencyStore, type Lease } from "../platform/IdempotencyStore.js"
import { randomBase62 } from "../platform/Secrets.js"
import { InMemoryDatabase, violated } from "./InMemoryDatabase.js"
import { type IdempotencyRow, put, remove } from "./InMemoryTables.js"

const keyOf = (scope: IdempotencyScope) => JSON.stringify([scope.principal, scope.endpoint, scope.key])

export const layer = Layer.effect(
  IdempotencyStore,
  Effect.gen(function* () {
    const database = yield* InMemoryDatabase
    let fingerprintKey: string | undefined

    /** Changes (or, for null, removes) the row of a lease `token` still holds; false when it holds none. */
    const updateLeased = (
      scope: IdempotencyScope,
      token: string,
      change: (row: IdempotencyRow) => IdempotencyRow | null
    ) =>
      database.statement(
        Effect.gen(function* () {
          yield* database.lock(`idempotency ${keyOf(scope)}`)
          const stored = yield* database.read((tables) => tables.idempotencyKeys.get(keyOf(scope)))
          if (stored === undefined || stored.response !== null || stored.leaseToken !== token) return false
          const changed = change(stored)
          yield* database.write(
            changed === null ? remove("idempotencyKeys", keyOf(scope)) : put("idempotencyKeys", keyOf(scope), changed)
          )
          return true
        })
      )

    /** A new row of the key, as the request with `requestHash` writes it. */
    const rowOf = (
      scope: IdempotencyScope,
      requestHash: string,
      row: Pick<IdempotencyRow, "response" | "leaseToken" | "leaseUntil" | "recoveryPoint" | "createdAt">
    ): IdempotencyRow => ({
      principal: scope.principal,
      companyId: scope.companyId,
      endpoint: scope.endpoint,
      key: scope.key,
      requestHash,
      ...row
    })

    return IdempotencyStore.of({
      claim: (scope, requestHash) =>
        database.statement(
          Effect.gen(function* () {
            if (!(yield* database.tryLock(`idempotency ${keyOf(scope)}`))) return { _tag: "InProgress" } satisfies Claim
            const stored = yield* database.read((tables) => tables.idempotencyKeys.get(keyOf(scope)))
            if (stored === undefined) return { _tag: "Claimed" } satisfies Claim
            if (stored.requestHash !== requestHash) return { _tag: "Conflict" } satisfies Claim
            if (stored.response === null) return { _tag: "InProgress" } satisfies Claim
            return { _tag: "Replay", response: stored.response } satisfies Claim
          })
        ),

      lease: (scope, requestHash, now, leaseUntil) =>
        database.statement(
          Effect.gen(function* () {
            // Like the unique key: a second writer of the same key waits for the first statement to end.
            yield* database.lock(`idempotency ${keyOf(scope)}`)
            const stored = yield* database.read((tables) => tables.idempotencyKeys.get(keyOf(scope)))
            if (stored !== undefined && stored.requestHash !== requestHash) return { _tag: "Conflict" } satisfies Lease
            if (stored?.response != null) return { _tag: "Replay", response: stored.response } satisfies Lease
            if (stored !== undefined && stored.leaseUntil !== null && stored.leaseUntil > now) {
              return { _tag: "InProgress" } satisfies Lease
            }
            if (
              scope.companyId !== null &&
              !(yield* database.read((tables) => tables.companies.has(scope.companyId!)))
            ) {
              return yield* violated("idempotency_keys_company_id_fkey", "no company has that id")
            }
            const token = randomBase62(22)
            yield* database.write(
              put(
                "idempotencyKeys",
                keyOf(scope),
                rowOf(scope, requestHash, {
                  response: null,
                  leaseToken: token,
                  leaseUntil,
                  recoveryPoint: stored?.recoveryPoint ?? null,
                  createdAt: stored?.createdAt ?? now
                })
              )
            )
            return { _tag: "Leased", token, recoveryPoint: stored?.recoveryPoint ?? null } satisfies Lease
          })
        ),

      checkpoint: (scope, token, point) => updateLeased(scope, token, (row) => ({ ...row, recoveryPoint: point })),

      finish: (scope, token, response) =>
        updateLeased(scope, token, (row) => ({ ...row, response, leaseToken: null, leaseUntil: null })),

      release: (scope, token, now) =>
        Effect.asVoid(
          updateLeased(scope, token, (row) => (row.recoveryPoint === null ? null : { ...row, leaseUntil: now }))
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
              put(
                "idempotencyKeys",
                keyOf(scope),
                rowOf(scope, requestHash, {
                  response,
                  leaseToken: null,
                  leaseUntil: null,
                  recoveryPoint: null,
                  createdAt: now
                })
              )
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
        ),

      fingerprintKey: (candidate) =>
        Effect.sync(() => {
          fingerprintKey ??= candidate
          return fingerprintKey
        })
    })
  })
)
