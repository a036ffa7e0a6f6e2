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
export const acquire = (dataDir: string) =>
  Effect.acquireRelease(
    Effect.gen(function* () {
      mkdirSync(dataDir, { recursive: true })
      const path = join(dataDir, "fatura.lock")
      const holder = tryLock(path)
      if (holder === undefined) return path
      if (Number.isInteger(holder) && holder !== process.pid && isRunning(holder)) {
        return yield* new DataDirInUse({ dataDir, pid: holder })
      }
      rmSync(path, { force: true })
      const next = tryLock(path)
      if (next !== undefined) return yield* new DataDirInUse({ dataDir, pid: next })
      return path
    }),
    (path) => Effect.sync(() => rmSync(path, { force: true }))
  )
