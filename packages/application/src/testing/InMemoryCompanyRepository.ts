// The CompanyRepository port in memory: companies, their keys, and their totals summed from the ledger.
import { AutoWithdrawal, type Company, type Invoice } from "@fatura/domain"
import { Effect, Layer, Option } from "effect"
import { CompanyRepository, type NewApiKey } from "../companies/CompanyRepository.js"
import { InMemoryDatabase, violated } from "./InMemoryDatabase.js"
import {
  type ApiKeyRow,
  asJson,
  type CompanyRow,
  put,
  type Tables,
  toApiKey,
  toCompany,
  totalsOf
} from "./InMemoryTables.js"

/** The lock a company's row is updated under (and its money moves serialized by, `lockCompanyLedger`). */
export const companyLock = (id: Company.CompanyId) => `companies ${id}`

/** The one public token of a company and mode, unique while it is not revoked. */
const publicTokenLock = (companyId: Company.CompanyId, mode: Invoice.Mode) => `public token ${companyId} ${mode}`

const livePublicKey = (tables: Tables, companyId: Company.CompanyId, mode: Invoice.Mode) =>
  [...tables.apiKeys.values()].find(
    (key) => key.companyId === companyId && key.mode === mode && key.kind === "public" && key.revokedAt === null
  )

export const layer = Layer.effect(
  CompanyRepository,
  Effect.gen(function* () {
    const database = yield* InMemoryDatabase

    const insertKey = (key: NewApiKey) =>
      database.statement(
        Effect.gen(function* () {
          const existing = yield* database.read((tables) => ({
            company: tables.companies.has(key.companyId),
            sameHash: [...tables.apiKeys.values()].some((row) => row.hash === key.hash),
            livePublic: key.kind === "public" && livePublicKey(tables, key.companyId, key.mode) !== undefined
          }))
          if (!existing.company) return yield* violated("api_keys_company_id_fkey", "no company has that id")
          if (existing.sameHash) return yield* violated("api_keys_hash_key", "a key with this hash exists")
          if ((key.kind === "public") !== (key.publicToken !== null)) {
            return yield* violated("api_keys_check", "public keys, and only they, keep their token")
          }
          if (existing.livePublic) return yield* violated("api_keys_one_public_token", "the company has one")
          const row: ApiKeyRow = {
            id: yield* database.nextval("apiKeys"),
            companyId: key.companyId,
            kind: key.kind,
            mode: key.mode,
            prefix: key.prefix,
            createdAt: key.now,
            revokedAt: null,
            hash: key.hash,
            publicToken: key.publicToken
          }
          yield* database.write(put("apiKeys", row.id, row))
          return toApiKey(row)
        })
      )

    // A concurrent first call waits for the other's insert and reads its token, as on the unique index.
    const publicToken = (candidate: NewApiKey) =>
      database.statement(
        Effect.gen(function* () {
          yield* database.lock(publicTokenLock(candidate.companyId, candidate.mode))
          const existing = yield* database.read((tables) => livePublicKey(tables, candidate.companyId, candidate.mode))
          if (existing !== undefined) return existing.publicToken!
          yield* insertKey({ ...candidate, kind: "public" })
          return candidate.publicToken!
        })
      )

    /** Updates the company's row under its lock; false when there is none. */
    const updateCompany = (id: Company.CompanyId, change: (row: CompanyRow) => CompanyRow) =>
      database.statement(
        Effect.gen(function* () {
          yield* database.lock(companyLock(id))
          const row = yield* database.read((tables) => tables.companies.get(id))
          if (row === undefined) return false
          yield* database.write(put("companies", id, change(row)))
          return true
        })
      )

    return CompanyRepository.of({
      create: (company) =>
        Effect.gen(function* () {
          const id = (yield* database.nextval("companies")) as Company.CompanyId
          const row = {
            id,
            cnpj: company.cnpj,
            companyType: "LTDA",
            corporateReason: company.corporateReason,
            fantasyName: company.fantasyName,
            urlWebsite: "",
            email: company.email,
            address: { street: "", number: "", city: "", postalCode: "", province: "", state: "" },
            bank: { code: "", account: "", agency: "", digit: "", name: "", type: "corrente" as const },
            autoWithdrawal: AutoWithdrawal.off,
            autoWithdrawalCheckedOn: null,
            blocks: { system: false, processing: false, pix: false, card: false, bank_slip: false, sake: false },
            feePlan: asJson(company.feePlan),
            isCustomFeePlan: company.isCustomFeePlan,
            pixKey: company.pixKey,
            createdAt: company.now,
            updatedAt: company.now,
            threeDsActivatedAt: null,
            threeDsUpdatedAt: null
          }
          yield* database.write(put("companies", id, row))
          return toCompany(row)
        }),

      findById: (id) =>
        database.read((tables) => Option.map(Option.fromNullishOr(tables.companies.get(id)), toCompany)),

      count: database.read((tables) => tables.companies.size),

      totals: (id, mode, now) => database.read((tables) => totalsOf(tables, id, mode, now)),

      findWithTotals: (id, mode, now) =>
        database.read((tables) =>
          Option.map(Option.fromNullishOr(tables.companies.get(id)), (row) => ({
            company: toCompany(row),
            totals: totalsOf(tables, id, mode, now)
          }))
        ),

      setBlock: (id, block, blocked, now) =>
        updateCompany(id, (row) => ({ ...row, blocks: { ...row.blocks, [block]: blocked }, updatedAt: now })),

      setPixKey: (id, pixKey, now) => updateCompany(id, (row) => ({ ...row, pixKey, updatedAt: now })),
      setBankAccount: (id, bank, now) => updateCompany(id, (row) => ({ ...row, bank, updatedAt: now })),

      setAutoWithdrawal: (id, schedule, now) =>
        updateCompany(id, (row) => ({ ...row, autoWithdrawal: schedule, updatedAt: now })),

      claimAutoWithdrawals: (today, limit) =>
        database.statement(
          Effect.gen(function* () {
            const due = yield* database.read((tables) =>
              [...tables.companies.values()]
                .filter(
                  (row) =>
                    row.autoWithdrawal !== "off" &&
                    (row.autoWithdrawalCheckedOn === null || row.autoWithdrawalCheckedOn < today)
                )
                .sort((a, b) => a.id - b.id)
                .slice(0, limit)
            )
            for (const row of due) {
              yield* database.write(put("companies", row.id, { ...row, autoWithdrawalCheckedOn: today }))
            }
            return due.map(toCompany)
          })
        ),

      activate3ds: (id, candidate, now) =>
        database.statement(
          Effect.gen(function* () {
            const token = yield* publicToken(candidate)
            const found = yield* updateCompany(id, (row) => ({
              ...row,
              threeDsActivatedAt: row.threeDsActivatedAt ?? now,
              threeDsUpdatedAt: now,
              updatedAt: now
            }))
            if (!found) return yield* Effect.die(new Error(`activate3ds: no company has id ${id}`))
            const row = (yield* database.read((tables) => tables.companies.get(id)))!
            return { publicToken: token, activatedAt: row.threeDsActivatedAt!, updatedAt: row.threeDsUpdatedAt! }
          })
        ),

      publicToken,

      insertKey,

      findKeyByHash: (hash) =>
        database.read((tables) => {
          const key = [...tables.apiKeys.values()].find((row) => row.hash === hash)
          return key === undefined
            ? Option.none()
            : Option.some({ key: toApiKey(key), company: toCompany(tables.companies.get(key.companyId)!) })
        }),

      activeSecretKeys: (prefix) =>
        database.read((tables) =>
          [...tables.apiKeys.values()]
            .filter((key) => key.prefix === prefix && key.kind === "secret" && key.revokedAt === null)
            .sort((a, b) => a.id - b.id)
            .map(toApiKey)
        ),

      revokeKey: (id, now) =>
        database.statement(
          Effect.gen(function* () {
            yield* database.lock(`api_keys ${id}`)
            // Read under the lock: another revocation may have got there first.
            const key = yield* database.read((tables) => tables.apiKeys.get(id))
            if (key === undefined || key.revokedAt !== null) return false
            yield* database.write(put("apiKeys", id, { ...key, revokedAt: now }))
            return true
          })
        ),

      listKeys: (id) =>
        database.read((tables) =>
          [...tables.apiKeys.values()]
            .filter((key) => key.companyId === id && key.kind === "secret")
            .sort((a, b) => a.id - b.id)
            .map(toApiKey)
        )
    })
  })
)
