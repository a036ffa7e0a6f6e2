// Revoking a secret key (SPEC 12.2, `fatura keys revoke`): one key by the prefix listings show, refused when no key
// or more than one key that is not revoked has that prefix; the whole key tells apart two keys of the same prefix.
import { describe, expect, it } from "@effect/vitest"
import type { Company } from "@fatura/domain"
import { Effect, Option } from "effect"
import { ApiKeys } from "../src/companies/ApiKeys.js"
import { CompanyRepository } from "../src/companies/CompanyRepository.js"
import * as Clock from "../src/platform/Clock.js"
import { keyPrefix, newSecretKey, sha256Hex } from "../src/platform/Secrets.js"
import { provided, registerMerchant } from "./support/Merchant.js"

/** Whether the key is stored and not revoked (read from the repository: authentication caches its answers). */
const works = (secretKey: string) =>
  Effect.gen(function* () {
    const found = yield* (yield* CompanyRepository).findKeyByHash(yield* sha256Hex(secretKey))
    return Option.match(found, { onNone: () => false, onSome: ({ key }) => key.revokedAt === null })
  })

/** A test key of `companyId` whose prefix is `prefix`, as two keys drawn alike would have. */
const keyWithPrefix = (companyId: Company.CompanyId, prefix: string) =>
  Effect.gen(function* () {
    const secretKey = `${prefix}${newSecretKey("test").slice(prefix.length)}`
    yield* (yield* CompanyRepository).insertKey({
      companyId,
      kind: "secret",
      mode: "test",
      prefix,
      hash: yield* sha256Hex(secretKey),
      publicToken: null,
      now: yield* Clock.now
    })
    return secretKey
  })

describe("ApiKeys.revoke", () => {
  it.effect("revokes the one key of a prefix, once; an unknown prefix is no key", () =>
    provided(
      Effect.gen(function* () {
        const keys = yield* ApiKeys
        const { company, secretKey } = yield* registerMerchant()
        const other = yield* keys.create(company.id, "test")
        const prefix = keyPrefix(secretKey)

        const revoked = yield* keys.revoke({ _tag: "Prefix", prefix })
        expect(revoked).toMatchObject({ companyId: company.id, prefix, mode: "test" })
        expect(revoked.revokedAt).not.toBeNull()
        expect(yield* works(secretKey)).toBe(false)
        expect(yield* works(other.secretKey)).toBe(true)

        const again = yield* Effect.flip(keys.revoke({ _tag: "Prefix", prefix }))
        expect(again).toMatchObject({ _tag: "KeyNotFound", prefix })
        const unknown = yield* Effect.flip(keys.revoke({ _tag: "Prefix", prefix: "sk_test_00000000" }))
        expect(unknown).toMatchObject({ _tag: "KeyNotFound", prefix: "sk_test_00000000" })
      })
    )
  )

  it.effect("refuses a prefix two keys share, naming how many, and revokes one of them by its whole key", () =>
    provided(
      Effect.gen(function* () {
        const keys = yield* ApiKeys
        const { company } = yield* registerMerchant()
        const prefix = "sk_test_SameSame"
        const first = yield* keyWithPrefix(company.id, prefix)
        const second = yield* keyWithPrefix(company.id, prefix)

        const refused = yield* Effect.flip(keys.revoke({ _tag: "Prefix", prefix }))
        expect(refused).toMatchObject({ _tag: "AmbiguousKeyPrefix", prefix, count: 2 })
        expect([yield* works(first), yield* works(second)]).toEqual([true, true])

        const revoked = yield* keys.revoke({ _tag: "SecretKey", secretKey: first })
        expect(revoked.prefix).toBe(prefix)
        expect([yield* works(first), yield* works(second)]).toEqual([false, true])
        // One left with that prefix: the prefix names it now.
        yield* keys.revoke({ _tag: "Prefix", prefix })
        expect(yield* works(second)).toBe(false)

        // A whole key that is no active key is refused by its prefix, never repeated back.
        const gone = yield* Effect.flip(keys.revoke({ _tag: "SecretKey", secretKey: first }))
        expect(gone).toMatchObject({ _tag: "KeyNotFound", prefix })
        expect(JSON.stringify(gone)).not.toContain(first)
      })
    )
  )
})
