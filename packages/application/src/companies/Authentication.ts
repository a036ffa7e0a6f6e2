// Use case: turns a bearer secret key into the calling company, or refuses it.
import { Cache, Context, type Duration, Effect, Exit, Layer, Option } from "effect"
import type { StorageUnavailable } from "../platform/Failures.js"
import { CompanyBlocked, Unauthenticated } from "../platform/Failures.js"
import { publicTokenPattern, secretKeyPattern, sha256Hex } from "../platform/Secrets.js"
import { CompanyRepository } from "./CompanyRepository.js"
import type { Principal, PublicPrincipal } from "./Principal.js"

/**
 * How long the answer for a secret key is reused before it is looked up again: a revoked key, or a company blocked
 * from the system, is refused within this time (revocation must take effect within 5 s). Zero looks every request up.
 */
export const KeyCacheTtl = Context.Reference<Duration.Input>("@fatura/application/KeyCacheTtl", {
  defaultValue: () => "3 seconds"
})

/** At most this many keys are remembered; the least recently used go first. */
const keyCacheCapacity = 10_000

export class Authentication extends Context.Service<
  Authentication,
  {
    readonly authenticate: (
      secretKey: string
    ) => Effect.Effect<Principal, Unauthenticated | CompanyBlocked | StorageUnavailable>
    /** A public token (`pk_…`, SPEC 2): the company and mode it tokenizes cards for, and nothing more. */
    readonly authenticatePublic: (
      publicToken: string
    ) => Effect.Effect<PublicPrincipal, Unauthenticated | CompanyBlocked | StorageUnavailable>
  }
>()("@fatura/application/Authentication") {
  static readonly layer = Layer.effect(
    Authentication,
    Effect.gen(function* () {
      const companies = yield* CompanyRepository
      const ttl = yield* KeyCacheTtl

      // A refusal is an answer like an acceptance and is remembered as long; a storage failure is not an answer.
      const lookUp = (secretKey: string) =>
        Effect.gen(function* () {
          const found = yield* companies.findKeyByHash(yield* sha256Hex(secretKey))
          if (Option.isNone(found) || found.value.key.kind !== "secret" || found.value.key.revokedAt !== null) {
            return new Unauthenticated({ credential: "secretKey", reason: "unknown or revoked secret key" })
          }
          const { key, company } = found.value
          if (company.blocks.system) return new CompanyBlocked({ block: "system" })
          return { keyId: key.id, mode: key.mode, companyId: company.id } satisfies Principal
        })
      // Keyed by the presented key itself, which never leaves this process's memory: hashing it again on every
      // request is what the cache saves.
      const answers = yield* Cache.makeWith(lookUp, {
        capacity: keyCacheCapacity,
        timeToLive: (exit) => (Exit.isSuccess(exit) ? ttl : 0)
      })

      // The use cases every request runs are untraced: `Effect.fn` captures a call site and opens a span on each call,
      // which the server (its tracer off) pays for and never reads (issue 25).
      const authenticate = Effect.fnUntraced(function* (secretKey: string) {
        if (!secretKeyPattern.test(secretKey)) {
          return yield* new Unauthenticated({ credential: "secretKey", reason: "missing or malformed secret key" })
        }
        const answer = yield* Cache.get(answers, secretKey)
        if (answer instanceof Unauthenticated || answer instanceof CompanyBlocked) return yield* answer
        return answer
      })
      const authenticatePublic = Effect.fnUntraced(function* (publicToken: string) {
        if (!publicTokenPattern.test(publicToken)) {
          return yield* new Unauthenticated({ credential: "publicToken", reason: "missing or malformed public token" })
        }
        const found = yield* companies.findKeyByHash(yield* sha256Hex(publicToken))
        if (Option.isNone(found) || found.value.key.kind !== "public" || found.value.key.revokedAt !== null) {
          return yield* new Unauthenticated({ credential: "publicToken", reason: "unknown or revoked public token" })
        }
        const { key, company } = found.value
        if (company.blocks.system) return yield* new CompanyBlocked({ block: "system" })
        return { mode: key.mode, company } satisfies PublicPrincipal
      })

      return Authentication.of({ authenticate, authenticatePublic })
    })
  )
}
