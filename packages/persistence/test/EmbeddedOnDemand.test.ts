// PGlite is loaded for an embedded database only: a process on Postgres imports `@fatura/persistence` without loading
// it (its module and `@fatura/sql-pglite`'s), and one that asks for an embedded database loads it then. Each case runs
// in a Node process of its own that records every module it loads.
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"

const run = promisify(execFile)
const packageDir = fileURLToPath(new URL("..", import.meta.url))

/** The URLs of the PGlite modules a new Node process loaded while running `script` (an ES module's body). */
const pgliteModulesLoadedBy = async (script: string): Promise<ReadonlyArray<string>> => {
  const program = `
    import { registerHooks } from "node:module"
    const loaded = []
    registerHooks({ load: (url, context, next) => { loaded.push(url); return next(url, context) } })
    ${script}
    console.log(JSON.stringify(loaded.filter((url) => /pglite/i.test(url))))`
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", program], {
    cwd: packageDir,
    timeout: 60_000
  })
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "[]")
}

describe("the embedded client", () => {
  it("is not loaded by a process that imports the package and builds a Postgres client", async () => {
    const loaded = await pgliteModulesLoadedBy(`
      const { Database } = await import("@fatura/persistence")
      const { Redacted } = await import("effect")
      Database.client({ _tag: "Postgres", url: Redacted.make("postgres://127.0.0.1:9/none") })`)
    expect(loaded).toEqual([])
  })

  it("is loaded when an embedded database is built", async () => {
    const loaded = await pgliteModulesLoadedBy(`
      const { Database } = await import("@fatura/persistence")
      const { Effect, Layer } = await import("effect")
      await Effect.runPromise(Effect.scoped(Layer.build(Database.client({ _tag: "Embedded", dataDir: undefined }))))`)
    expect(loaded.some((url) => url.includes("@electric-sql/pglite"))).toBe(true)
    expect(loaded.some((url) => url.includes("sql-pglite"))).toBe(true)
  })
})
