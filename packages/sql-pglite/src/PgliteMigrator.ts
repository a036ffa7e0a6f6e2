/**
 * Runs effect/sql migrations against a PGlite client; the loaders and error
 * types are effect/sql's own, re-exported so callers need only this module.
 * `schemaDirectory` is accepted but ignored: PGlite has no `pg_dump`.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Migrator from "effect/sql/Migrator"
import type { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"

export * from "effect/sql/Migrator"
export { fromFileSystem } from "effect/sql/MigratorFileSystem"

/** Applies, in one transaction, the migrations newer than the latest recorded one; returns those it applied. */
export const run: <R = never>(
  options: Migrator.MigratorOptions<R>
) => Effect.Effect<
  ReadonlyArray<readonly [id: number, name: string]>,
  Migrator.MigrationError | SqlError,
  SqlClient | R
> = Migrator.make({ dumpSchema: () => Effect.void })

/** Runs the migrations while the layer is built. */
export const layer = <R = never>(
  options: Migrator.MigratorOptions<R>
): Layer.Layer<never, Migrator.MigrationError | SqlError, SqlClient | R> => Layer.effectDiscard(run(options))
