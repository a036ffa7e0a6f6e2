/**
 * An effect/sql client over PGlite, the embedded Postgres, that compiles and
 * decodes like @effect/sql-pg so one repository runs unchanged on both.
 *
 * Rows decode as with sql-pg 4.0.5: `int8` → `bigint`, `numeric` → `string`,
 * `timestamptz` / `timestamp` → `Date` (milliseconds, truncated), `date` →
 * `"YYYY-MM-DD"`, `time` → `bigint` microseconds, `timetz` → `"HH:MM:SS±HH:MM"`,
 * `interval` → `{ months, days, microseconds: bigint }`, `json` / `jsonb` →
 * parsed value, `bool` → `boolean`, `uuid` → `string`, `bytea` → `Uint8Array`,
 * `int2` / `int4` / `float4` / `float8` / `oid` → `number`, and one-dimensional
 * arrays of these → arrays. Parameters are typed as sql-pg infers them.
 *
 * Remaining differences from sql-pg:
 * - PGlite returns text, so a type sql-pg has no codec for arrives as
 *   PostgreSQL's text output here but as its binary bytes decoded as UTF-8
 *   there; `regclass` is its name here but its OID there.
 * - Multi-dimensional arrays decode to nested arrays; sql-pg rejects them.
 * - A plain object parameter binds as JSON text, typed by the statement (so a
 *   `jsonb` column accepts it); sql-pg rejects it. Use `JSON.stringify(value)`
 *   or the client's `json` helper for SQL meant to run on both.
 * - Integer and fractional numbers mixed in one array parameter widen to a
 *   common type; sql-pg rejects the mix.
 * - `interval` decoding needs the default `IntervalStyle` (`postgres`).
 * - PGlite is one connection: a transaction or `reserve` holds it
 *   exclusively, so a statement run while one is open, from a fiber outside
 *   it, waits until it ends. Waiting on such a fiber from inside the
 *   transaction deadlocks.
 * - Streams read every row of the query before emitting the first.
 * - Each statement takes the extended protocol, so one string with several
 *   statements fails, as it does on sql-pg.
 * - A statement with parameters is prepared under a name the first time its
 *   text runs and only bound and executed after that (sql-pg prepares too):
 *   PGlite would otherwise parse and plan it on every run. Statements without
 *   parameters are not kept.
 */
import type { PGliteInterface, PGliteOptions, Results, RowMode } from "@electric-sql/pglite"
import { PGlite } from "@electric-sql/pglite"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Reactivity from "effect/reactivity/Reactivity"
import type * as Scope from "effect/Scope"
import * as Semaphore from "effect/Semaphore"
import * as Stream from "effect/Stream"
import * as SqlClient from "effect/sql/SqlClient"
import type { Connection } from "effect/sql/SqlConnection"
import { SqlError, UnknownError } from "effect/sql/SqlError"
import * as Statement from "effect/sql/Statement"
import { bind, JsonParameter, serializers } from "./internal/parameters.js"
import { parsers } from "./internal/parsers.js"
import { connectionError, fromCause } from "./internal/sqlError.js"
import * as Statements from "./internal/statements.js"

export type { Interval } from "./internal/parsers.js"

export const TypeId: TypeId = "~@fatura/sql-pglite/PgliteClient"

export type TypeId = "~@fatura/sql-pglite/PgliteClient"

export interface PgliteClient extends SqlClient.SqlClient {
  readonly [TypeId]: TypeId
  readonly config: PgliteClientConfig
  /**
   * The underlying instance, for what effect/sql does not cover (dumps,
   * extensions). Queries sent through it skip the client's locking and land in
   * whatever transaction is open.
   */
  readonly pglite: PGliteInterface
  /** A parameter bound as `jsonb`, like sql-pg's `PgClient.json`. */
  readonly json: (value: unknown) => Statement.Fragment
}

export const PgliteClient = Context.Service<PgliteClient>("@fatura/sql-pglite/PgliteClient")

export interface PgliteClientConfig {
  /** Where PGlite keeps its files (a path, `file://`, `idb://`…); in memory when absent. */
  readonly dataDir?: string | undefined
  /**
   * An instance to use instead of opening one; the client leaves it open when
   * its scope closes. Queries sent to it directly skip the client's locking.
   */
  readonly pglite?: PGliteInterface | undefined
  /** Passed to `PGlite.create` when the client opens the instance itself. */
  readonly options?: Omit<PGliteOptions, "dataDir"> | undefined
  readonly spanAttributes?: Record<string, unknown> | undefined
  readonly transformResultNames?: ((str: string) => string) | undefined
  readonly transformQueryNames?: ((str: string) => string) | undefined
  /** Whether the name transforms also apply inside JSON values; on by default, as in sql-pg. */
  readonly transformJson?: boolean | undefined
  /**
   * How many statements with parameters stay prepared (parsed and planned once, then only bound and run), the least
   * recently used closed first; 256 by default.
   */
  readonly preparedStatements?: number | undefined
}

type TransformRows = (<A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined

type Query = (
  sql: string,
  params: ReadonlyArray<unknown>,
  rowMode: RowMode
) => Effect.Effect<Results<unknown>, SqlError>

class ConnectionImpl implements Connection {
  readonly query: Query

  constructor(query: Query) {
    this.query = query
  }

  private rows(sql: string, params: ReadonlyArray<unknown>, transformRows: TransformRows) {
    const rows = Effect.map(this.query(sql, params, "object"), (result) => result.rows as ReadonlyArray<object>)
    return transformRows === undefined ? rows : Effect.map(rows, transformRows)
  }

  execute(sql: string, params: ReadonlyArray<unknown>, transformRows: TransformRows) {
    return this.rows(sql, params, transformRows)
  }
  executeRaw(sql: string, params: ReadonlyArray<unknown>) {
    return this.query(sql, params, "object")
  }
  executeUnprepared(sql: string, params: ReadonlyArray<unknown>, transformRows: TransformRows) {
    return this.rows(sql, params, transformRows)
  }
  executeValues(sql: string, params: ReadonlyArray<unknown>) {
    return Effect.map(
      this.query(sql, params, "array"),
      (result) => result.rows as ReadonlyArray<ReadonlyArray<unknown>>
    )
  }
  executeValuesUnprepared(sql: string, params: ReadonlyArray<unknown>) {
    return this.executeValues(sql, params)
  }
  executeStream(sql: string, params: ReadonlyArray<unknown>, transformRows: TransformRows) {
    return Stream.fromIterableEffect(this.rows(sql, params, transformRows))
  }
}

/** PostgreSQL answers `COMMIT` with `ROLLBACK` when the transaction had already failed. */
const commit = (conn: Connection): Effect.Effect<void, SqlError> =>
  Effect.flatMap(conn.executeRaw("COMMIT", []), (result) =>
    (result as Results<unknown>).command === "ROLLBACK"
      ? Effect.fail(
          new SqlError({
            reason: new UnknownError({
              cause: new Error("COMMIT rolled back an aborted transaction"),
              message: "PgliteClient: COMMIT rolled back an aborted transaction",
              operation: "commit"
            })
          })
        )
      : Effect.void
  )

const open = (config: PgliteClientConfig): Effect.Effect<PGliteInterface, SqlError, Scope.Scope> => {
  const existing = config.pglite
  if (existing !== undefined) {
    return Effect.as(
      Effect.tryPromise({
        try: () => existing.waitReady,
        catch: (cause) => connectionError(cause, "PgliteClient: PGlite failed to start", "connect")
      }),
      existing
    )
  }
  return Effect.acquireRelease(
    Effect.tryPromise({
      try: (): Promise<PGliteInterface> => PGlite.create(config.dataDir, config.options),
      catch: (cause) => connectionError(cause, "PgliteClient: PGlite failed to start", "connect")
    }),
    (pglite) =>
      Effect.ignore(
        Effect.tryPromise(() => pglite.close()),
        { log: true, message: "PgliteClient: close failed" }
      )
  )
}

/**
 * Opens (or adopts) a PGlite instance and builds the client around it; an
 * instance the client opened is closed with the scope.
 */
export const make = Effect.fnUntraced(function* (
  config: PgliteClientConfig
): Effect.fn.Return<PgliteClient, SqlError, Scope.Scope | Reactivity.Reactivity> {
  const pglite = yield* open(config)
  const permit = yield* Semaphore.make(1)
  const statement = Statements.make(pglite, { parsers, serializers, capacity: config.preparedStatements ?? 256 })

  // Uninterruptible so a permit is only handed on once PGlite has finished the
  // statement: an abandoned query would otherwise run inside the next holder's transaction.
  const query: Query = (sql, params, rowMode) =>
    Effect.uninterruptible(
      Effect.tryPromise({
        try: () => {
          const bound = bind(params)
          return statement(sql, bound.values, bound.types, rowMode)
        },
        catch: (cause) => fromCause(cause, "query")
      })
    )

  // Outside a transaction each statement takes the connection for itself alone;
  // a transaction (or `reserve`) takes it for its whole scope and then runs statements directly.
  const shared = new ConnectionImpl((sql, params, rowMode) => permit.withPermit(query(sql, params, rowMode)))
  const exclusive = new ConnectionImpl(query)

  const compiler = makeCompiler(config.transformQueryNames, config.transformJson)
  const transformRows = config.transformResultNames
    ? Statement.defaultTransforms(config.transformResultNames, config.transformJson).array
    : undefined

  const client = yield* SqlClient.make({
    driver: "pglite",
    acquirer: Effect.succeed(shared),
    borrower: (f) => f(shared),
    transactionAcquirer: Effect.as(permit.takeScoped(1), exclusive),
    compiler,
    prepareTransactionControls: true,
    commit,
    releaseSavepoint: (name) => `RELEASE SAVEPOINT ${name}`,
    spanAttributes: [
      ...(config.spanAttributes ? Object.entries(config.spanAttributes) : []),
      ["db.system.name", "postgresql"]
    ],
    transformRows
  })

  return Object.assign(client, {
    [TypeId]: TypeId,
    config,
    pglite,
    json: (value: unknown) => Statement.fragment([PgliteJson(value)])
  })
})

/** Provides both `PgliteClient` and `SqlClient`. */
export const layer = (config: PgliteClientConfig): Layer.Layer<PgliteClient | SqlClient.SqlClient, SqlError> =>
  Layer.effectContext(
    Effect.map(make(config), (client) =>
      Context.make(PgliteClient, client).pipe(Context.add(SqlClient.SqlClient, client))
    )
  ).pipe(Layer.provide(Reactivity.layer))

/** As `layer`, over an instance the caller owns and closes. */
export const layerFrom = (
  pglite: PGliteInterface,
  config?: Omit<PgliteClientConfig, "dataDir" | "pglite" | "options">
): Layer.Layer<PgliteClient | SqlClient.SqlClient, SqlError> => layer({ ...config, pglite })

/** The Postgres dialect compiler, identical in output to sql-pg's: `$n` placeholders and `"`-quoted identifiers. */
export const makeCompiler = (transform?: (_: string) => string, transformJson = true): Statement.Compiler => {
  const transformValue = transformJson && transform ? Statement.defaultTransforms(transform).value : undefined

  return Statement.makeCompiler<PgliteCustom>({
    dialect: "pg",
    placeholder(index) {
      return `$${index}`
    },
    onIdentifier: transform
      ? (value, withoutTransform) => (withoutTransform ? escapeIdentifier(value) : escapeIdentifier(transform(value)))
      : escapeIdentifier,
    onRecordUpdate(placeholders, valueAlias, valueColumns, values, returning) {
      return [
        `(values ${placeholders}) AS ${valueAlias}${valueColumns}${returning ? ` RETURNING ${returning[0]}` : ""}`,
        returning ? values.flat().concat(returning[1]) : values.flat()
      ]
    },
    onCustom(type, placeholder, withoutTransform) {
      const value = withoutTransform || transformValue === undefined ? type.paramA : transformValue(type.paramA)
      return [placeholder(undefined), [new JsonParameter(value)]]
    }
  })
}

const escapeIdentifier = Statement.defaultEscape('"')

type PgliteCustom = PgliteJson

interface PgliteJson extends Statement.Custom<"PgliteJson", unknown> {}

const PgliteJson = Statement.custom<PgliteJson>("PgliteJson")
