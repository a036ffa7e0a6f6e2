// Use case: turns a bearer secret key into the calling company, or refuses it.
import { Context, Effect, Layer, Option } from "effect"
import { CompanyRepository } from "./CompanyRepository.js"
import type { StorageUnavailable } from "./Failures.js"
import { CompanyBlocked, Unauthenticated } from "./Failures.js"
import type { Principal, PublicPrincipal } from "./Principal.js"
import { publicTokenPattern, secretKeyPattern, sha256Hex } from "./Secrets.js"

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
      const authenticate = Effect.fn("Authentication.authenticate")(function* (secretKey: string) {
        if (!secretKeyPattern.test(secretKey)) {
          return yield* new Unauthenticated({ reason: "missing or malformed secret key" })
        }
        const found = yield* companies.findKeyByHash(yield* sha256Hex(secretKey))
        if (Option.isNone(found) || found.value.key.kind !== "secret" || found.value.key.revokedAt !== null) {
          return yield* new Unauthenticated({ reason: "unknown or revoked secret key" })
        }
        const { key, company } = found.value
        if (company.blocks.system) return yield* new CompanyBlocked({ block: "system" })
        return { keyId: key.id, mode: key.mode, company } satisfies Principal
      })
      const authenticatePublic = Effect.fn("Authentication.authenticatePublic")(function* (publicToken: string) {
        if (!publicTokenPattern.test(publicToken)) {
          return yield* new Unauthenticated({ reason: "missing or malformed public token" })
        }
        const found = yield* companies.findKeyByHash(yield* sha256Hex(publicToken))
        if (Option.isNone(found) || found.value.key.kind !== "public" || found.value.key.revokedAt !== null) {
          return yield* new Unauthenticated({ reason: "unknown or revoked public token" })
        }
        const { key, company } = found.value
        if (company.blocks.system) return yield* new CompanyBlocked({ block: "system" })
        return { mode: key.mode, company } satisfies PublicPrincipal
      })

      return Authentication.of({ authenticate, authenticatePublic })
    })
  )
}
