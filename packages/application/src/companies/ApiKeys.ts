// Use case: issuing, revoking and listing a company's secret keys (CLI, SPEC 12.2); a company's first key of a
// mode comes with the secret that signs that mode's postbacks, when it has none yet.
import type { Company, Invoice } from "@fatura/domain"
import { Context, Effect, Layer, Option } from "effect"
import * as Clock from "../platform/Clock.js"
import { AmbiguousKeyPrefix, CompanyNotFound, KeyNotFound, type StorageUnavailable } from "../platform/Failures.js"
import { keyPrefix, newSecretKey, newWebhookSecret, sha256Hex } from "../platform/Secrets.js"
import { Transactions } from "../platform/Transactions.js"
import { PostbackRepository } from "../postbacks/PostbackRepository.js"
import { type ApiKeyRecord, CompanyRepository } from "./CompanyRepository.js"

export interface IssuedKey {
  /** Shown once: only its hash is stored. */
  readonly secretKey: string
  readonly record: ApiKeyRecord
  /** Shown once: the secret that signs postbacks of the key's mode, made now because the company had none. */
  readonly webhookSecret: string | null
}

/**
 * The secret key to revoke: by its prefix (`sk_test_` or `sk_live_` and 8 characters, as listings show it), or by the
 * whole key, which tells apart two keys whose prefixes happen to be the same.
 */
export type KeyReference =
  | { readonly _tag: "Prefix"; readonly prefix: string }
  | { readonly _tag: "SecretKey"; readonly secretKey: string }

export class ApiKeys extends Context.Service<
  ApiKeys,
  {
    readonly create: (
      companyId: Company.CompanyId,
      mode: Invoice.Mode
    ) => Effect.Effect<IssuedKey, CompanyNotFound | StorageUnavailable>
    /** Revokes the one secret key, not revoked yet, that `reference` names; returns it as it is now. */
    readonly revoke: (
      reference: KeyReference
    ) => Effect.Effect<ApiKeyRecord, KeyNotFound | AmbiguousKeyPrefix | StorageUnavailable>
    readonly list: (
      companyId: Company.CompanyId
    ) => Effect.Effect<ReadonlyArray<ApiKeyRecord>, CompanyNotFound | StorageUnavailable>
  }
>()("@fatura/application/ApiKeys") {
  static readonly layer = Layer.effect(
    ApiKeys,
    Effect.gen(function* () {
      const companies = yield* CompanyRepository
      const postbacks = yield* PostbackRepository
      const transactions = yield* Transactions
      const requireCompany = (companyId: Company.CompanyId) =>
        companies
          .findById(companyId)
          .pipe(
            Effect.flatMap(
              Option.match({ onNone: () => Effect.fail(new CompanyNotFound({ companyId })), onSome: Effect.succeed })
            )
          )

      const insertKey = Effect.fnUntraced(function* (companyId: Company.CompanyId, mode: Invoice.Mode) {
        yield* requireCompany(companyId)
        const secretKey = newSecretKey(mode)
        const now = yield* Clock.now
        const record = yield* companies.insertKey({
          companyId,
          kind: "secret",
          mode,
          prefix: keyPrefix(secretKey),
          hash: yield* sha256Hex(secretKey),
          publicToken: null,
          now
        })
        const candidate = newWebhookSecret()
        const created = yield* postbacks.createWebhookSecret(companyId, mode, candidate, now)
        return { secretKey, record, webhookSecret: created ? candidate : null }
      })

      const create = Effect.fn("ApiKeys.create")((companyId: Company.CompanyId, mode: Invoice.Mode) =>
        transactions.withTransaction(insertKey(companyId, mode))
      )

      const activeKeys = (reference: KeyReference) =>
        reference._tag === "Prefix"
          ? companies.activeSecretKeys(reference.prefix)
          : Effect.map(
              Effect.flatMap(sha256Hex(reference.secretKey), companies.findKeyByHash),
              Option.match({
                onNone: () => [],
                onSome: ({ key }) => (key.kind === "secret" && key.revokedAt === null ? [key] : [])
              })
            )

      const revoke = Effect.fn("ApiKeys.revoke")((reference: KeyReference) =>
        transactions.withTransaction(
          Effect.gen(function* () {
            // A whole key is never repeated back, not even in a refusal: its prefix names it.
            const prefix = reference._tag === "Prefix" ? reference.prefix : keyPrefix(reference.secretKey)
            const matching = yield* activeKeys(reference)
            if (matching.length > 1) return yield* new AmbiguousKeyPrefix({ prefix, count: matching.length })
            const key = matching[0]
            const now = yield* Clock.now
            // Revoked by another revocation since it was read: just as absent.
            if (key === undefined || !(yield* companies.revokeKey(key.id, now))) {
              return yield* new KeyNotFound({ prefix })
            }
            return { ...key, revokedAt: now }
          })
        )
      )

      const list = Effect.fn("ApiKeys.list")(function* (companyId: Company.CompanyId) {
        yield* requireCompany(companyId)
        return yield* companies.listKeys(companyId)
      })

      return ApiKeys.of({ create, revoke, list })
    })
  )
}
