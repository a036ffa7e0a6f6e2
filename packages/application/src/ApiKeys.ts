// Use case: issuing, revoking and listing a company's secret keys (CLI, SPEC 12.2).
import type { Company, Invoice } from "@fatura/domain"
import { Context, Effect, Layer, Option } from "effect"
import * as Clock from "./Clock.js"
import { type ApiKeyRecord, CompanyRepository } from "./CompanyRepository.js"
import { CompanyNotFound, type StorageUnavailable } from "./Failures.js"
import { keyPrefix, newSecretKey, sha256Hex } from "./Secrets.js"

export interface IssuedKey {
  /** Shown once: only its hash is stored. */
  readonly secretKey: string
  readonly record: ApiKeyRecord
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
      const requireCompany = (companyId: Company.CompanyId) =>
        companies
          .findById(companyId)
          .pipe(
            Effect.flatMap(
              Option.match({ onNone: () => Effect.fail(new CompanyNotFound({ companyId })), onSome: Effect.succeed })
            )
          )

      const create = Effect.fn("ApiKeys.create")(function* (companyId: Company.CompanyId, mode: Invoice.Mode) {
        yield* requireCompany(companyId)
        const secretKey = newSecretKey(mode)
        const record = yield* companies.insertKey({
          companyId,
          kind: "secret",
          mode,
          prefix: keyPrefix(secretKey),
          hash: yield* sha256Hex(secretKey),
          publicToken: null,
          now: yield* Clock.now
        })
        return { secretKey, record }
      })

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
