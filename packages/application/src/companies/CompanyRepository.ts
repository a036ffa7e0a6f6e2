// Port: companies, their totals, and their keys.
import type {
  AutoWithdrawal,
  BankAccount,
  BusinessCalendar,
  Company,
  FeePlan,
  Invoice,
  PixKey,
  Timestamp
} from "@fatura/domain"
import { Context, Effect, Option } from "effect"
import { CompanyNotFound, type StorageUnavailable } from "../platform/Failures.js"

export interface NewCompany {
  readonly cnpj: string
  readonly corporateReason: string
  readonly fantasyName: string
  readonly email: string
  readonly pixKey: PixKey.PixKey
  readonly feePlan: FeePlan.FeePlan
  readonly isCustomFeePlan: boolean
  readonly now: Timestamp.Timestamp
}

export type KeyKind = "secret" | "public"

export interface ApiKeyRecord {
  readonly id: number
  readonly companyId: Company.CompanyId
  readonly kind: KeyKind
  readonly mode: Invoice.Mode
  readonly prefix: string
  readonly createdAt: Timestamp.Timestamp
  readonly revokedAt: Timestamp.Timestamp | null
}

export interface NewApiKey {
  readonly companyId: Company.CompanyId
  readonly kind: KeyKind
  readonly mode: Invoice.Mode
  readonly prefix: string
  readonly hash: string
  /** Kept in clear for public tokens only: they are handed out again on every exchange. */
  readonly publicToken: string | null
  readonly now: Timestamp.Timestamp
}

export interface ThreeDsActivation {
  readonly publicToken: string
  readonly activatedAt: Timestamp.Timestamp
  readonly updatedAt: Timestamp.Timestamp
}

export class CompanyRepository extends Context.Service<
  CompanyRepository,
  {
    readonly create: (company: NewCompany) => Effect.Effect<Company.Company, StorageUnavailable>
    readonly findById: (id: Company.CompanyId) => Effect.Effect<Option.Option<Company.Company>, StorageUnavailable>
    readonly count: Effect.Effect<number, StorageUnavailable>
    /** Balances and paid totals of the company's objects of one mode (test and live money never mix). */
    readonly totals: (
      id: Company.CompanyId,
      mode: Invoice.Mode,
      now: Timestamp.Timestamp
    ) => Effect.Effect<Company.CompanyTotals, StorageUnavailable>
    /** The company and its totals in one statement. */
    readonly findWithTotals: (
      id: Company.CompanyId,
      mode: Invoice.Mode,
      now: Timestamp.Timestamp
    ) => Effect.Effect<
      Option.Option<{ readonly company: Company.Company; readonly totals: Company.CompanyTotals }>,
      StorageUnavailable
    >
    readonly setBlock: (
      id: Company.CompanyId,
      block: Company.BlockKind,
      blocked: boolean,
      now: Timestamp.Timestamp
    ) => Effect.Effect<boolean, StorageUnavailable>
    /** False when no company has that id. */
    readonly setPixKey: (
      id: Company.CompanyId,
      pixKey: PixKey.PixKey,
      now: Timestamp.Timestamp
    ) => Effect.Effect<boolean, StorageUnavailable>
    /** Replaces the company's automatic withdrawal schedule (SPEC 13.4); false when no company has that id. */
    readonly setAutoWithdrawal: (
      id: Company.CompanyId,
      schedule: AutoWithdrawal.Schedule,
      now: Timestamp.Timestamp
    ) => Effect.Effect<boolean, StorageUnavailable>
    /**
     * Up to `limit` companies with a schedule that were not looked at for automatic withdrawals on `today` yet, each
     * marked looked at for `today` as it is taken: the sweep takes a company once a day, whatever it then does.
     */
    readonly claimAutoWithdrawals: (
      today: BusinessCalendar.CalendarDate,
      limit: number
    ) => Effect.Effect<ReadonlyArray<Company.Company>, StorageUnavailable>
    /** Replaces the company's bank account; false when no company has that id. */
    readonly setBankAccount: (
      id: Company.CompanyId,
      bank: BankAccount.BankAccount,
      now: Timestamp.Timestamp
    ) => Effect.Effect<boolean, StorageUnavailable>
    /**
     * Marks 3-D Secure active and returns the company's public token for `mode`, creating it on the first call;
     * later calls keep the token and the activation time and move only `updatedAt`.
     */
    readonly activate3ds: (
      id: Company.CompanyId,
      candidate: NewApiKey,
      now: Timestamp.Timestamp
    ) => Effect.Effect<ThreeDsActivation, StorageUnavailable>
    /** The company's public token for `candidate.mode`, inserting `candidate` when it has none. */
    readonly publicToken: (candidate: NewApiKey) => Effect.Effect<string, StorageUnavailable>
    readonly insertKey: (key: NewApiKey) => Effect.Effect<ApiKeyRecord, StorageUnavailable>
    /** The key with this hash and its company, when the key exists. */
    readonly findKeyByHash: (
      hash: string
    ) => Effect.Effect<Option.Option<{ key: ApiKeyRecord; company: Company.Company }>, StorageUnavailable>
    /** The secret keys with this prefix that are not revoked, in the order they were made. */
    readonly activeSecretKeys: (prefix: string) => Effect.Effect<ReadonlyArray<ApiKeyRecord>, StorageUnavailable>
    /** Revokes the key with this id; false when it was revoked already. */
    readonly revokeKey: (id: number, now: Timestamp.Timestamp) => Effect.Effect<boolean, StorageUnavailable>
    readonly listKeys: (id: Company.CompanyId) => Effect.Effect<ReadonlyArray<ApiKeyRecord>, StorageUnavailable>
  }
>()("@fatura/application/CompanyRepository") {}

/**
 * The company behind an authenticated key, as it is now. Keys reference their company and companies are never
 * deleted, so a missing one is a defect, not an answer.
 */
export const companyOf = <A>(
  found: Effect.Effect<Option.Option<A>, StorageUnavailable>,
  companyId: Company.CompanyId
) =>
  Effect.flatMap(found, (value) =>
    Option.isSome(value) ? Effect.succeed(value.value) : Effect.die(new CompanyNotFound({ companyId }))
  )
