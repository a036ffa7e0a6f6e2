// Use case: issuing, revoking and listing a company's secret keys (CLI, SPEC 12.2); a company's first key of a
// mode comes with the secret that signs that mode's postbacks, when it has none yet.
import type { Company, Invoice } from "@fatura/domain"
import { Context, Effect, Layer, Option } from "effect"
import * as Clock from "./Clock.js"
import { type ApiKeyRecord, CompanyRepository } from "./CompanyRepository.js"
import { CompanyNotFound, type StorageUnavailable } from "./Failures.js"
import { PostbackRepository } from "./PostbackRepository.js"
import { keyPrefix, newSecretKey, newWebhookSecret, sha256Hex } from "./Secrets.js"
import { Transactions } from "./Transactions.js"

export interface IssuedKey {
  /** Shown once: only its hash is stored. */
  readonly secretKey: string
  readonly record: ApiKeyRecord
  /** Shown once: the secret that signs postbacks of the key's mode, made now because the company had none. */
  readonly webhookSecret: string | null
}

export class ApiKeys extends Context.Service<
  ApiKeys,
  {
    readonly create: (
      companyId: Company.CompanyId,
      mode: Invoice.Mode
    ) => Effect.Effect<IssuedKey, CompanyNotFound | StorageUnavailable>
    readonly revoke: (prefix: string) => Effect.Effect<number, StorageUnavailable>
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

      const revoke = Effect.fn("ApiKeys.revoke")(function* (prefix: string) {
        return yield* companies.revokeKeys(prefix, yield* Clock.now)
      })

      const list = Effect.fn("ApiKeys.list")(function* (companyId: Company.CompanyId) {
        yield* requireCompany(companyId)
        return yield* companies.listKeys(companyId)
      })

      return ApiKeys.of({ create, revoke, list })
    })
  )
}
