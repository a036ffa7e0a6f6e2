// `pnpm test:postgres`: the Postgres half of the database suites, alone. Every test file that declares its suites once
// per test database (through `testDatabases` or `onEachDatabase`, from a `test/support/TestDatabases.ts`) is run with
// TEST_DATABASE_ONLY=postgres, so that only its Postgres variant runs, and so is every `*.postgres.test.ts` (what only
// Postgres's wire can show); every other file is left out, having nothing that depends on the database chosen. `pnpm
// test` with TEST_DATABASE_URL runs both halves in one go; CI runs `pnpm test` exactly as the README writes it
// (PGlite, no TEST_DATABASE_URL) and then this.
import { spawnSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

if (!process.env.TEST_DATABASE_URL) {
  console.error("pnpm test:postgres needs TEST_DATABASE_URL: a Postgres server where the tests may create databases")
  process.exit(2)
}

const perDatabase = /\b(testDatabases|onEachDatabase)\b/
const testFiles = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "support" ? [] : testFiles(path)
    return entry.name.endsWith(".test.ts") ? [path] : []
  })

const files = ["packages", "apps"]
  .flatMap((top) => readdirSync(top).map((name) => join(top, name, "test")))
  .flatMap((dir) => {
    try {
      return testFiles(dir)
    } catch {
      return []
    }
  })
  .filter((file) => file.endsWith(".postgres.test.ts") || perDatabase.test(readFileSync(file, "utf8")))
  .sort()

console.log(`the Postgres variants of ${files.length} test files`)
const run = spawnSync("vitest", ["run", "--maxWorkers=3", ...process.argv.slice(2), ...files], {
  stdio: "inherit",
  env: { ...process.env, TEST_DATABASE_ONLY: "postgres" }
})
process.exit(run.status ?? 1)
