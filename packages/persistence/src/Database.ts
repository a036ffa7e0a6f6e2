// The database layers: Postgres when a URL is given, embedded Postgres (PGlite) in a directory otherwise;
// migrated on start, and every repository port implemented over whichever one it is.
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import type { SqlClient } from "effect/sql"
import type { MigrationError } from "effect/sql/Migrator"
import { SqlError, UnknownError } from "effect/sql/SqlError"
import * as EmbeddedLock from "./EmbeddedLock.js"
import * as Migrations from "./Migrations.js"
import * as SqlBankFileRepository from "./SqlBankFileRepository.js"
import * as SqlBankPayoutRepository from "./SqlBankPayoutRepository.js"
import * as SqlBoletoRegistrationRepository from "./SqlBoletoRegistrationRepository.js"
import * as SqlCardChargeRepository from "./SqlCardChargeRepository.js"
import * as SqlCardTokenRepository from "./SqlCardTokenRepository.js"
import * as SqlClientRepository from "./SqlClientRepository.js"
import * as SqlCompanyRepository from "./SqlCompanyRepository.js"
import * as SqlEventOutbox from "./SqlEventOutbox.js"
import * as SqlIdempotencyStore from "./SqlIdempotencyStore.js"
import * as SqlInvoiceRepository from "./SqlInvoiceRepository.js"
import * as SqlLedgerEntryRepository from "./SqlLedgerEntryRepository.js"
import * as SqlPixChargeRemovalRepository from "./SqlPixChargeRemovalRepository.js"
import * as SqlPixReturnRepository from "./SqlPixReturnRepository.js"
import * as SqlPostbackRepository from "./SqlPostbackRepository.js"
import * as SqlReadiness from "./SqlReadiness.js"
import * as SqlReceivableRepository from "./SqlReceivableRepository.js"
import * as SqlTransactions from "./SqlTransactions.js"
import * as SqlWebhookEndpointRepository from "./SqlWebhookEndpointRepository.js"
import * as SqlWithdrawalRepository from "./SqlWithdrawalRepository.js"

export type DatabaseConfig =
  | { readonly _tag: "Postgres"; readonly url: Redacted.Redacted<string>; readonly maxConnections?: number }
  | {
      readonly _tag: "Embedded"
      readonly dataDir: string | undefined
      /**
       * An image made by `image` that a new embedded database starts from instead of an empty cluster: no cluster to
       * initialise, no migration it already holds to apply. A data directory that exists already refuses one.
       */
      readonly image?: Blob | undefined
    }

/** A database URL selects Postgres; without one the embedded database lives in `dataDir` (memory when undefined). */
export const configFrom = (databaseUrl: string | undefined, dataDir: string | undefined): DatabaseConfig =>
  databaseUrl === undefined || databaseUrl === ""
    ? { _tag: "Embedded", dataDir }
    : { _tag: "Postgres", url: Redacted.make(databaseUrl) }

const maxConnectionsOf = (config: Extract<DatabaseConfig, { _tag: "Postgres" }>) => config.maxConnections ?? 10

/** What this process's connections are called in `pg_stat_activity`: one name per process, for its metrics. */
const applicationName = `fatura-${process.pid}`

/**
 * The embedded client, imported when an embedded database is asked for: a process on Postgres never loads PGlite
 * (15 MB of memory and ~70 ms of start-up).
 */
const embeddedClient = Effect.promise(() => import("@fatura/sql-pglite")).pipe(
  Effect.map(({ PgliteClient }) => PgliteClient)
)

export const client = (
  config: DatabaseConfig
): Layer.Layer<SqlClient.SqlClient, SqlError | EmbeddedLock.DataDirInUse | EmbeddedLock.DataDirUnusable> => {
  if (config._tag === "Postgres") {
    return PgClient.layer({
      url: config.url,
      maxConnections: maxConnectionsOf(config),
      applicationName,
      // A statement outside a transaction (most reads: a Search is one) shares a connection with others, pipelined,
      // instead of waiting for one of its own; transactions still take a connection each. Measured by `pnpm bench`:
      // Search from 0.64–0.74 to 0.82–0.89 of the baseline's requests/s, Create unchanged.
      multiplex: true,
      // The service's statements are short: compiling a plan to machine code costs more than it saves, and a
      // generic plan of a list with few rows is estimated over the whole table.
      startupParameters: { jit: "off" }
    })
  }
  const embedded = Layer.unwrap(
    Effect.map(embeddedClient, (PgliteClient) =>
      PgliteClient.layer({
        dataDir: config.dataDir,
        options: config.image === undefined ? undefined : { loadDataDir: config.image }
      })
    )
  )
  const dataDir = config.dataDir
  return dataDir === undefined ? embedded : Layer.unwrap(Effect.as(EmbeddedLock.acquire(dataDir), embedded))
}

/** Runs the migrations when the layer is built, before anything else touches the database. */
export const migrations: Layer.Layer<never, SqlError | MigrationError, SqlClient.SqlClient> = Layer.effectDiscard(
  Migrations.run.pipe(Effect.withSpan("Database.migrate"))
)

export const repositories = (config: DatabaseConfig) =>
  Layer.mergeAll(
    SqlCardChargeRepository.layer,
    SqlCardTokenRepository.layer,
    SqlClientRepository.layer,
    SqlCompanyRepository.layer,
    SqlEventOutbox.layer,
    SqlIdempotencyStore.layer,
    SqlInvoiceRepository.layer,
    SqlLedgerEntryRepository.layer,
    SqlReceivableRepository.layer,
    SqlWithdrawalRepository.layer,
    SqlBoletoRegistrationRepository.layer,
    SqlBankFileRepository.layer,
    SqlBankPayoutRepository.layer,
    SqlPixChargeRemovalRepository.layer,
    SqlPixReturnRepository.layer,
    SqlPostbackRepository.layer,
    SqlTransactions.layer,
    SqlWebhookEndpointRepository.layer,
    SqlReadiness.layer(
      config._tag === "Postgres"
        ? { _tag: "Pool", applicationName, max: maxConnectionsOf(config) }
        : { _tag: "Embedded" }
    )
  )

/**
 * An empty, migrated embedded database as an image (PGlite's data directory as an uncompressed tar) that new
 * embedded databases can start from (`image` in their config). Starting a database this way takes a fraction of
 * initialising a cluster and migrating it; a suite that needs many fresh databases makes the image once.
 */
export const image: Effect.Effect<Blob, SqlError | MigrationError> = Effect.flatMap(embeddedClient, (PgliteClient) =>
  Effect.gen(function* () {
    const client = yield* PgliteClient.PgliteClient
    yield* Migrations.run
    return yield* Effect.tryPromise({
      try: () => client.pglite.dumpDataDir("none"),
      catch: (cause) =>
        new SqlError({ reason: new UnknownError({ cause, message: "the embedded database could not be dumped" }) })
    })
  }).pipe(Effect.provide(PgliteClient.layer({})), Effect.scoped)
)

/** Every port this package implements, over a migrated database. */
export const layer = (config: DatabaseConfig) =>
  repositories(config).pipe(Layer.provideMerge(migrations), Layer.provideMerge(client(config)))
