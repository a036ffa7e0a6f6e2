// The commands of `fatura` that administer a database (SPEC 12.2), as procedures: each takes the command as the CLI's
// parser decided it and returns what its use case answered, for the CLI to print. The CLI runs them in its own process
// when it can open the database, and otherwise asks the embedded server that holds it, through its admin socket
// (`AdminSocket`): the same procedures either way, so that the output and the exit code are the same.
import {
  AmbiguousKeyPrefix,
  ApiKeys,
  Companies,
  CompanyNotFound,
  KeyNotFound,
  PixKeyRequired,
  StorageUnavailable
} from "@fatura/application"
import { AutoWithdrawal, BankAccount, Company, FeePlan, Invoice, PixKey, Timestamp } from "@fatura/domain"
import { Database, Migrations } from "@fatura/persistence"
import { Context, Effect, Layer, Schema } from "effect"
import { Rpc, type RpcClient, type RpcClientError, RpcGroup, RpcTest } from "effect/rpc"
import { SqlClient } from "effect/sql"

/** The migrations could not be applied: the database's own words. */
export class MigrationFailed extends Schema.TaggedError<MigrationFailed>()("MigrationFailed", {
  reason: Schema.String
}) {
  override get message() {
    return `the migrations could not be applied: ${this.reason}`
  }
}

/** Which key `keys revoke` names: the prefix `keys list` prints, or the whole key (`ApiKeys.KeyReference`). */
export const KeyReference = Schema.Union([
  Schema.TaggedStruct("Prefix", { prefix: Schema.String }),
  Schema.TaggedStruct("SecretKey", { secretKey: Schema.String })
])
export type KeyReference = typeof KeyReference.Type

const KeyListing = Schema.Struct({
  prefix: Schema.String,
  mode: Invoice.Mode,
  createdAt: Timestamp.Timestamp,
  revokedAt: Schema.NullOr(Timestamp.Timestamp)
})

export class Administration extends RpcGroup.make(
  Rpc.make("CompanyCreate", {
    payload: {
      name: Schema.String,
      cnpj: Schema.String,
      email: Schema.String,
      pixKey: Schema.optionalKey(Schema.String),
      feePlan: Schema.optionalKey(FeePlan.FeePlan)
    },
    success: Schema.Struct({ companyId: Company.CompanyId, secretKey: Schema.String, webhookSecret: Schema.String }),
    error: Schema.Union([PixKeyRequired, PixKey.InvalidPixKey, StorageUnavailable])
  }),
  Rpc.make("CompanyPixKey", {
    payload: { companyId: Company.CompanyId, pixKey: Schema.String },
    success: Schema.String,
    error: Schema.Union([CompanyNotFound, PixKey.InvalidPixKey, StorageUnavailable])
  }),
  Rpc.make("CompanyBankAccount", {
    payload: {
      companyId: Company.CompanyId,
      bankCode: Schema.String,
      agency: Schema.String,
      account: Schema.String,
      digit: Schema.String,
      type: BankAccount.BankType
    },
    success: Schema.Struct({
      code: Schema.String,
      name: Schema.String,
      agency: Schema.String,
      account: Schema.String,
      digit: Schema.String,
      type: BankAccount.BankType
    }),
    error: Schema.Union([CompanyNotFound, BankAccount.InvalidBankAccount, StorageUnavailable])
  }),
  Rpc.make("CompanyAutoWithdrawal", {
    payload: { companyId: Company.CompanyId, schedule: Schema.String },
    success: Schema.String,
    error: Schema.Union([CompanyNotFound, AutoWithdrawal.InvalidSchedule, StorageUnavailable])
  }),
  Rpc.make("CompanyBlock", {
    payload: { companyId: Company.CompanyId, kind: Company.BlockKind, blocked: Schema.Boolean },
    error: Schema.Union([CompanyNotFound, StorageUnavailable])
  }),
  Rpc.make("KeysCreate", {
    payload: { companyId: Company.CompanyId, mode: Invoice.Mode },
    success: Schema.Struct({ secretKey: Schema.String, webhookSecret: Schema.NullOr(Schema.String) }),
    error: Schema.Union([CompanyNotFound, StorageUnavailable])
  }),
  Rpc.make("KeysRevoke", {
    payload: { key: KeyReference },
    success: KeyListing,
    error: Schema.Union([KeyNotFound, AmbiguousKeyPrefix, StorageUnavailable])
  }),
  Rpc.make("KeysList", {
    payload: { companyId: Company.CompanyId },
    success: Schema.Array(KeyListing),
    error: Schema.Union([CompanyNotFound, StorageUnavailable])
  }),
  Rpc.make("Migrate", {
    success: Schema.Array(Schema.Struct({ id: Schema.Number, name: Schema.String })),
    error: MigrationFailed
  })
) {}

/** The procedures over the use cases, in whichever process holds the database. */
export const handlers = Administration.toLayer(
  Effect.gen(function* () {
    const companies = yield* Companies
    const keys = yield* ApiKeys
    const listing = (record: typeof KeyListing.Type) => ({
      prefix: record.prefix,
      mode: record.mode,
      createdAt: record.createdAt,
      revokedAt: record.revokedAt
    })
    const sql = yield* SqlClient.SqlClient
    return Administration.of({
      CompanyCreate: (command) =>
        Effect.map(companies.register(command), (registered) => ({
          companyId: registered.company.id,
          secretKey: registered.secretKey,
          webhookSecret: registered.webhookSecret
        })),
      CompanyPixKey: ({ companyId, pixKey }) => companies.setPixKey(companyId, pixKey),
      CompanyBankAccount: ({ companyId, ...bankAccount }) => companies.setBankAccount(companyId, bankAccount),
      CompanyAutoWithdrawal: ({ companyId, schedule }) => companies.setAutoWithdrawal(companyId, schedule),
      CompanyBlock: ({ companyId, kind, blocked }) => companies.setBlock(companyId, kind, blocked),
      KeysCreate: ({ companyId, mode }) =>
        Effect.map(keys.create(companyId, mode), (issued) => ({
          secretKey: issued.secretKey,
          webhookSecret: issued.webhookSecret
        })),
      KeysRevoke: ({ key }) => Effect.map(keys.revoke(key), listing),
      KeysList: ({ companyId }) => Effect.map(keys.list(companyId), (records) => records.map(listing)),
      Migrate: () =>
        Migrations.run.pipe(
          Effect.provideService(SqlClient.SqlClient, sql),
          Effect.map((applied) => applied.map(([id, name]) => ({ id, name }))),
          Effect.mapError((error) => new MigrationFailed({ reason: error.message }))
        )
    })
  })
)

/** The procedures as the CLI calls them: in its own process, or in the server's through its admin socket. */
export class Admin extends Context.Service<
  Admin,
  RpcClient.RpcClient<RpcGroup.Rpcs<typeof Administration>, RpcClientError.RpcClientError>
>()("@fatura/server/Admin") {}

/**
 * The procedures run in this process, over the database it opens — migrated first, unless the command is the one
 * that migrates and says what it applied.
 */
export const local = (database: Database.DatabaseConfig, options: { readonly migrate: boolean }) =>
  Layer.effect(Admin, RpcTest.makeClient(Administration)).pipe(
    Layer.provide(handlers),
    Layer.provide(
      Layer.mergeAll(Companies.layer, ApiKeys.layer).pipe(
        Layer.provideMerge(
          options.migrate
            ? Database.layer(database)
            : Database.repositories(database).pipe(Layer.provideMerge(Database.client(database)))
        )
      )
    )
  )
