// What the database layers promise besides the repositories: the readiness probe answers while the database does,
// with this process's connections; Postgres connections run without JIT compilation; and an embedded data directory
// belongs to one process at a time.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Readiness } from "@fatura/application"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { Database, EmbeddedLock, Migrations } from "../src/index.js"
import { embeddedOnly, onEachDatabase } from "./support/TestDatabases.js"

onEachDatabase("Readiness", (it, database) => {
  it.effect("answers the probe, and counts this process's connections", () =>
    Effect.gen(function* () {
      const readiness = yield* Readiness
      yield* readiness.check
      const connections = yield* readiness.connections
      if (database.name === "PGlite") {
        expect(connections).toEqual({ open: 1, active: null, max: 1 })
      } else {
        expect(connections.max).toBe(10)
        expect(connections.open).toBeGreaterThanOrEqual(1)
        // Postgres tells how many are busy; the embedded database cannot.
        expect(typeof connections.active).toBe("number")
      }
    })
  )

  if (database.concurrent) {
    it.effect("runs the service's statements with JIT compilation off", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const [setting] = yield* sql`SHOW jit`
        expect(setting?.jit).toBe("off")
      })
    )
  }
})

embeddedOnly("Database.image", () => {
  const tables = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ readonly name: string }>`
      SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`
    return rows.map((row) => row.name)
  })

  it.effect(
    "starts an embedded database with every migration applied and nothing in it, its data its own",
    () =>
      Effect.gen(function* () {
        const image = yield* Database.image
        const migrated = yield* tables.pipe(
          Effect.provide(
            Layer.provideMerge(Database.migrations, Database.client({ _tag: "Embedded", dataDir: undefined }))
          )
        )
        const fromImage = Database.client({ _tag: "Embedded", dataDir: undefined, image })
        const first = yield* Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          expect(yield* tables).toEqual(migrated)
          expect(yield* Migrations.run, "no migration is left to apply").toEqual([])
          yield* sql`CREATE TABLE scratch (n int)`
          return yield* tables
        }).pipe(Effect.provide(fromImage))
        expect(first).toContain("scratch")
        const second = yield* tables.pipe(Effect.provide(fromImage))
        expect(second, "a database started from the image shares nothing with another").toEqual(migrated)
      }),
    60_000
  )
})

describe("EmbeddedLock", () => {
  const withDataDir = <A, E>(body: (dataDir: string) => Effect.Effect<A, E>) =>
    Effect.acquireUseRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "fatura-lock-"))),
      body,
      (dataDir) => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true }))
    )
  const lockFile = (dataDir: string) => join(dataDir, "fatura.lock")

  it.effect("holds a data directory for its scope and lets it go when the scope ends", () =>
    withDataDir((dataDir) =>
      Effect.gen(function* () {
        yield* Effect.scoped(
          Effect.gen(function* () {
            yield* EmbeddedLock.acquire(dataDir)
            expect(readFileSync(lockFile(dataDir), "utf8")).toBe(String(process.pid))
          })
        )
        expect(() => readFileSync(lockFile(dataDir))).toThrow()
        yield* Effect.scoped(EmbeddedLock.acquire(dataDir))
      })
    )
  )

  it.effect("refuses a data directory that a running process holds", () =>
    withDataDir((dataDir) =>
      Effect.gen(function* () {
        // The parent of this process is running, and is not this process.
        writeFileSync(lockFile(dataDir), String(process.ppid))
        const refused = yield* Effect.scoped(EmbeddedLock.acquire(dataDir)).pipe(Effect.flip)
        expect(refused).toEqual(new EmbeddedLock.DataDirInUse({ dataDir, pid: process.ppid }))
        expect(readFileSync(lockFile(dataDir), "utf8")).toBe(String(process.ppid))
      })
    )
  )

  it.effect("refuses, as a failure the operator can fix, a data directory it cannot make", () =>
    withDataDir((dataDir) =>
      Effect.gen(function* () {
        const file = join(dataDir, "a-file")
        writeFileSync(file, "")
        const refused = yield* Effect.scoped(EmbeddedLock.acquire(join(file, "data"))).pipe(Effect.flip)
        expect(refused).toBeInstanceOf(EmbeddedLock.DataDirUnusable)
        expect(refused.message).toMatch(/^the embedded database cannot use .*a-file\/data: ENOTDIR/)
      })
    )
  )

  it.effect("takes over the lock a process that is gone left behind", () =>
    withDataDir((dataDir) =>
      Effect.gen(function* () {
        // Above Linux's largest process id: no process has it.
        writeFileSync(lockFile(dataDir), String(2 ** 22 + 1))
        yield* Effect.scoped(
          Effect.gen(function* () {
            yield* EmbeddedLock.acquire(dataDir)
            expect(readFileSync(lockFile(dataDir), "utf8")).toBe(String(process.pid))
          })
        )
      })
    )
  )
})
