// SPEC 12.2: the `fatura` program's company and key commands when no server holds the database — on the embedded
// database, and on Postgres when TEST_DATABASE_URL is set — printing what `CliWithServer.test.ts` sees them print
// through a running server. The commands run in this process; the built program runs as a process of its own where
// the process is the subject: migrating a new database, a lock and a socket left behind or held, its version. Every failure is one line on stderr and exit code 1; a bug says so, with its stack. A
// socket a dead server left behind does not stop the commands, and a socket that is not its user's alone is not used.
import { execFile } from "node:child_process"
import { createHash, randomBytes } from "node:crypto"
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Database } from "@fatura/persistence"
import { Cause, Console, Effect, Exit, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Cli from "../src/Cli.js"
import {
  administer,
  adminSocketOf,
  type CommandRun,
  embeddedIn,
  failedWith,
  fatura,
  faturaInProcess
} from "./support/FaturaCommands.js"
import { postgres } from "./support/TestDatabases.js"

/** Above Linux's largest process id: no process has it. */
const deadPid = 2 ** 22 + 1

/** A socket as a server that was killed leaves it: the file is there and nothing listens on it. */
const staleSocketAt = (path: string) =>
  new Promise((resolve) => {
    const listenAndDie =
      "require('node:net').createServer().listen(process.argv[1], () => process.kill(process.pid, 'SIGKILL'))"
    execFile(process.execPath, ["-e", listenAndDie, path], resolve)
  })

/** A data directory whose admin socket's directory exists, as a server made it. */
const withSocketDirectory = (dataDir: string) => {
  mkdirSync(join(dataDir, "admin"), { recursive: true, mode: 0o700 })
  return adminSocketOf(dataDir)
}

// Each command is a process of its own that opens the embedded database: slow to start on a busy machine.
describe("fatura's company and key commands, with no server running", { timeout: 600_000 }, () => {
  let dataDir: string
  let scratch: string
  let administered: Awaited<ReturnType<typeof administer>>

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), "fatura-cli-"))
    scratch = mkdtempSync(join(tmpdir(), "fatura-cli-scratch-"))
  })
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(scratch, { recursive: true, force: true })
  })

  it("migrates a fresh embedded database, saying what it applied", async () => {
    const migrated = await fatura(embeddedIn(dataDir), "migrate")
    expect(migrated.code, migrated.stderr).toBe(0)
    expect(migrated.stdout).toMatch(/^applied 1_foundation\n(applied \d+_\w+\n)+$/)
  })

  it("runs every administrative command on the embedded database", async () => {
    administered = await administer(embeddedIn(dataDir))
  })

  it("refuses a prefix two active keys share, naming how many, and revokes one by its whole key", async () => {
    // Two keys whose prefixes are the same: one in a million million, made here by hand.
    const prefix = administered.liveKey.slice(0, 16)
    const twin = `${prefix}${randomBytes(24)
      .toString("base64")
      .replace(/[^0-9A-Za-z]/g, "0")
      .slice(0, 24)}`
    await Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const hash = createHash("sha256").update(twin).digest("hex")
      yield* sql`
        INSERT INTO api_keys (company_id, kind, mode, prefix, hash, created_at)
        VALUES (${administered.companyId}, 'secret', 'live', ${prefix}, ${hash}, now())`
    }).pipe(Effect.provide(Database.client({ _tag: "Embedded", dataDir })), Effect.scoped, Effect.runPromise)

    const refused = await faturaInProcess(embeddedIn(dataDir), "keys", "revoke", `${prefix}…`)
    failedWith(refused, `2 active secret keys have the prefix ${prefix}: give the whole key to revoke one of them`)
    const byKey = await faturaInProcess(embeddedIn(dataDir), "keys", "revoke", twin)
    expect(byKey).toEqual({ code: 0, stdout: `revoked ${prefix}…\n`, stderr: "" })
  })

  it("opens the database itself when the server that left a socket behind is gone", async () => {
    await staleSocketAt(withSocketDirectory(dataDir))
    writeFileSync(join(dataDir, "fatura.lock"), String(deadPid))
    const listed = await fatura(embeddedIn(dataDir), "keys", "list", String(administered.companyId))
    expect(listed.stderr).toBe("")
    expect(listed.stdout).toContain(`${administered.liveKey.slice(0, 16)}…  live`)
  })

  it("says so in one line when the process that holds the database does not answer on its socket", async () => {
    const held = join(scratch, "held")
    const socket = withSocketDirectory(held)
    await staleSocketAt(socket)
    // This test's own process holds it: a process that is running and answers nothing.
    writeFileSync(join(held, "fatura.lock"), String(process.pid))
    failedWith(
      await fatura(embeddedIn(held), "keys", "list", "1"),
      `the embedded database in ${held} is in use by process ${process.pid}, and nothing answers on ${socket} ` +
        "(ECONNREFUSED): if it is a fatura server that is starting, try again; otherwise stop it, or use DATABASE_URL"
    )
  })

  it("never connects to a socket whose directory other users may enter", async () => {
    const open = join(scratch, "open")
    const socket = withSocketDirectory(open)
    chmodSync(join(open, "admin"), 0o755)
    const listener = createServer()
    let connections = 0
    listener.on("connection", (connection) => {
      connections++
      connection.destroy()
    })
    await new Promise<void>((resolve) => listener.listen(socket, resolve))
    writeFileSync(join(open, "fatura.lock"), String(process.pid))
    try {
      failedWith(
        await fatura(embeddedIn(open), "keys", "list", "1"),
        `the embedded database in ${open} is in use by process ${process.pid}, and nothing answers on ${socket} ` +
          `(${join(open, "admin")} is not this user's alone: its mode is 755, not 700): if it is a fatura ` +
          "server that is starting, try again; otherwise stop it, or use DATABASE_URL"
      )
      expect(connections).toBe(0)
    } finally {
      await new Promise((resolve) => listener.close(resolve))
    }
  })

  it("says in one line that a data directory cannot be made", async () => {
    const file = join(scratch, "a-file")
    writeFileSync(file, "")
    const failed = await faturaInProcess(embeddedIn(join(file, "data")), "keys", "list", "1")
    expect(failed).toMatchObject({ code: 1, stdout: "" })
    expect(failed.stderr).toMatch(/^fatura: the embedded database cannot use .*a-file\/data: ENOTDIR[^\n]*\n$/)
  })

  it("refuses what it cannot parse — a CNPJ, pix keys of no valid type, an account type — in one line each", async () => {
    const create = ["company", "create", "--name", "Loja", "--email", "loja@loja.example"]
    const pixKeys = [
      ["joão@loja.example", "an email pix key must be plain ASCII"],
      ["529.982.247-24", "a CPF or CNPJ pix key: invalid check digits"],
      ["+1 415 555 0100", "a phone pix key is +55"],
      ["minha chave", "must be a CPF, a CNPJ"]
    ] as const
    // Refused before any database is opened: side by side.
    const bankAccount = ["--bank-code", "341", "--agency", "1", "--account", "2", "--digit", "3"]
    const [cnpj, pixKeyReplaced, accountType, ...refused] = await Promise.all([
      faturaInProcess(embeddedIn(dataDir), ...create, "--cnpj", "11.444.777/0001-62"),
      faturaInProcess(embeddedIn(dataDir), "company", "pix-key", "1", "pix@"),
      faturaInProcess(embeddedIn(dataDir), "company", "bank-account", "1", ...bankAccount, "--type", "savings"),
      ...pixKeys.map(([pixKey]) =>
        faturaInProcess(embeddedIn(dataDir), ...create, "--cnpj", "11.222.333/0001-81", "--pix-key", pixKey)
      )
    ])
    const oneLine = (run: CommandRun, start: string, why: string) => {
      expect(run.code).toBe(1)
      expect(run.stderr.startsWith(`fatura: ${start}`), run.stderr).toBe(true)
      expect(run.stderr).toContain(why)
      expect(run.stderr.indexOf("\n")).toBe(run.stderr.length - 1)
    }
    oneLine(cnpj!, 'Invalid value for flag --cnpj: "11.444.777/0001-62"', "invalid check digits")
    oneLine(pixKeyReplaced!, 'Invalid value for argument <key>: "pix@"', "is not a valid email address")
    oneLine(accountType!, 'Invalid value for flag --type: "savings"', '"corrente" | "poupanca"')
    for (const [index, [pixKey, why]] of pixKeys.entries()) {
      oneLine(refused[index]!, `Invalid value for flag --pix-key: "${pixKey}"`, why)
    }
  })

  it("says the version changesets gave the app", async () => {
    const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))
    const { stdout } = await fatura(embeddedIn(dataDir), "--version")
    expect(stdout.trim()).toContain(version)
    expect(version).not.toBe("0.0.0")
  })
})

// The CLI's other database: TEST_DATABASE_URL's server, else the machine's local one, as for the other tests of what
// runs on Postgres (fatura serve --workers, fatura-worker).
const adminUrl = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres"

describe("fatura's commands on Postgres", { timeout: 600_000 }, () => {
  let database: Awaited<ReturnType<ReturnType<typeof postgres>["acquire"]>>
  let url: string

  beforeAll(async () => {
    database = await postgres(adminUrl)
      .acquire()
      .catch((error) => {
        throw new Error(`these tests need a Postgres server at ${adminUrl} (set TEST_DATABASE_URL): ${error}`)
      })
    url = database.config._tag === "Postgres" ? Redacted.value(database.config.url) : ""
  })
  afterAll(() => database?.release())

  it("runs every administrative command as on the embedded database", async () => {
    await administer({ DATABASE_URL: url })
  })
})

describe("a bug in the CLI", () => {
  it("is said to be one, with what there is to report it", async () => {
    const printed: Array<string> = []
    const console = Object.assign(Object.create(globalThis.console), {
      error: (...args: ReadonlyArray<unknown>) => printed.push(args.join(" "))
    })
    const exit = await Cli.report(Cause.die(new Error("a contradiction"))).pipe(
      Effect.provideService(Console.Console, console),
      Effect.runPromiseExit
    )
    expect(Exit.isFailure(exit)).toBe(true)
    expect(printed).toHaveLength(1)
    expect(printed[0]).toMatch(/^fatura: an unexpected error, a bug; please report it with what follows\n/)
    expect(printed[0]).toContain("Error: a contradiction")
    expect(printed[0]).toMatch(/\bat .*Cli\.test\.ts:\d+/)
  })
})
