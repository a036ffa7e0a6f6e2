// PGlite is one process's database: a second process opening the same directory would corrupt it. The
// first process to open a data directory holds a lock file there until it closes; others are refused.

import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs"
import { join } from "node:path"
import { Effect, Schema } from "effect"

export class DataDirInUse extends Schema.TaggedError<DataDirInUse>()("DataDirInUse", {
  dataDir: Schema.String,
  pid: Schema.Number
}) {
  override get message() {
    return `the embedded database in ${this.dataDir} is in use by process ${this.pid}: stop it first, or use DATABASE_URL`
  }
}

/** The data directory cannot be made or written (a file in its place, no permission): the operator's to fix. */
export class DataDirUnusable extends Schema.TaggedError<DataDirUnusable>()("DataDirUnusable", {
  dataDir: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `the embedded database cannot use ${this.dataDir}: ${this.reason}`
  }
}

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

const tryLock = (path: string): number | undefined => {
  try {
    const fd = openSync(path, "wx")
    writeSync(fd, String(process.pid))
    closeSync(fd)
    return undefined
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
    return Number(readFileSync(path, "utf8"))
  }
}

/** Holds the directory's lock for the enclosing scope; a lock left by a dead process is taken over. */
export const acquire = (dataDir: string) => {
  const path = join(dataDir, "fatura.lock")
  const unusable = (cause: unknown) => new DataDirUnusable({ dataDir, reason: (cause as Error).message })
  const lock = Effect.try({ try: () => tryLock(path), catch: unusable })
  return Effect.acquireRelease(
    Effect.gen(function* () {
      yield* Effect.try({ try: () => mkdirSync(dataDir, { recursive: true }), catch: unusable })
      const holder = yield* lock
      if (holder === undefined) return path
      if (Number.isInteger(holder) && holder !== process.pid && isRunning(holder)) {
        return yield* new DataDirInUse({ dataDir, pid: holder })
      }
      rmSync(path, { force: true })
      const next = yield* lock
      if (next !== undefined) return yield* new DataDirInUse({ dataDir, pid: next })
      return path
    }),
    () => Effect.sync(() => rmSync(path, { force: true }))
  )
}
