// The `fatura` program's administrative commands as an operator runs them: what each printed on stdout and on stderr,
// and its exit code. `fatura` runs the built program, a process of its own, for what only a process shows (its
// start, its lock on the database, its version); `faturaInProcess` runs the same command in this process, the way
// `main.js` runs it but without a process start per command. `administer` runs every such command once and holds what
// each must print, so that the same run proves the same output and exit codes on any database, with or without a
// running server.
import { execFile } from "node:child_process"
import { Console as NodeConsole } from "node:console"
import { join } from "node:path"
import { PassThrough } from "node:stream"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { ConfigProvider, Console, Effect, Exit, Layer, Stdio } from "effect"
import { expect } from "vitest"
import * as Cli from "../../src/Cli.js"
import { main } from "./ServerProcess.js"

export interface CommandRun {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** The environment a command adds to this process's, naming its database: `embeddedIn(dir)`, or a `DATABASE_URL`. */
export type DatabaseEnv = Readonly<Record<string, string>>

/** Where the documentation says a server on the embedded database in `dataDir` serves the CLI's commands. */
export const adminSocketOf = (dataDir: string) => join(dataDir, "admin", "fatura.sock")

export const embeddedIn = (dataDir: string): DatabaseEnv => ({ DATABASE_URL: "", FATURA_DATA_DIR: dataDir })

/** `fatura args…` on that database, to its end; it fails only when the program could not be run at all. */
export const fatura = (database: DatabaseEnv, ...args: Array<string>) =>
  new Promise<CommandRun>((resolve, reject) => {
    execFile(process.execPath, [main, ...args], { env: { ...process.env, ...database } }, (error, stdout, stderr) => {
      if (error !== null && typeof error.code !== "number") return reject(error)
      resolve({ code: error === null ? 0 : (error.code as number), stdout, stderr })
    })
  })

/** What a stream was written, as text. */
const collected = () => {
  const stream = new PassThrough()
  let text = ""
  stream.on("data", (chunk: Buffer) => {
    text += chunk.toString()
  })
  return { stream, text: () => text }
}

/** This process's environment with the database's. */
const environment = (database: DatabaseEnv): Record<string, string> =>
  Object.fromEntries(
    Object.entries({ ...process.env, ...database }).filter((entry): entry is [string, string] => entry[1] !== undefined)
  )

/**
 * `fatura args…` on that database in this process: `Cli.runOn` with these arguments, this process's environment and
 * the database's, and a console of its own; exit code 1 when it failed, as `main.js` exits.
 */
export const faturaInProcess = async (database: DatabaseEnv, ...args: Array<string>): Promise<CommandRun> => {
  const stdout = collected()
  const stderr = collected()
  const platform = Layer.merge(NodeServices.layer, Stdio.layerTest({ args: Effect.succeed(args) }))
  const exit = await Cli.runOn("0.0.0-test", platform).pipe(
    Effect.provideService(Console.Console, new NodeConsole({ stdout: stdout.stream, stderr: stderr.stream })),
    Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env: environment(database) })),
    Effect.runPromiseExit
  )
  // The console writes through the streams: what it wrote is read once they have passed it on.
  await new Promise((resolve) => setImmediate(resolve))
  return { code: Exit.isSuccess(exit) ? 0 : 1, stdout: stdout.text(), stderr: stderr.text() }
}

/** A command that failed as the CLI fails: exit code 1, nothing on stdout, this one line on stderr. */
export const failedWith = (run: CommandRun, line: string) =>
  expect(run, "a failure is one line on stderr").toEqual({ code: 1, stdout: "", stderr: `fatura: ${line}\n` })

/** A command that succeeded, printing this on stdout and nothing on stderr. */
const succeededWith = (run: CommandRun, stdout: string | RegExp) => {
  expect({ code: run.code, stderr: run.stderr }, run.stdout).toEqual({ code: 0, stderr: "" })
  if (typeof stdout === "string") expect(run.stdout).toBe(stdout)
  else expect(run.stdout).toMatch(stdout)
}

const key = (mode: "test" | "live") => new RegExp(`^sk_${mode}_[0-9A-Za-z]{32}$`)
const secret = /whsec_[0-9A-Za-z]{32}/

/**
 * Every administrative command once, as SPEC 12.2 has them, on `database`, each run in this process: a company registered, its keys created,
 * listed, revoked by the prefix `keys list` printed (pasted back as printed, then again without its ellipsis, which
 * no active key has any more), blocked, its pix key replaced, an unknown company refused, the database migrated. Returns the company's id, its
 * revoked test key and a live key.
 */
export const administer = async (database: DatabaseEnv) => {
  const created = await faturaInProcess(
    database,
    ...["company", "create", "--name", "Sorveteria Açaí", "--cnpj", "11.444.777/0001-61", "--email", "oi@acai.example"],
    "--json"
  )
  succeededWith(created, /^\{.*\}\n$/)
  const company = JSON.parse(created.stdout) as { company_id: number; secret_key: string; webhook_secret: string }
  expect(company.secret_key).toMatch(key("test"))
  expect(company.webhook_secret).toMatch(secret)
  const id = String(company.company_id)

  // The company's first live key comes with its live webhook secret; its second alone.
  const firstLive = await faturaInProcess(database, "keys", "create", id, "--live")
  succeededWith(firstLive, /^sk_live_\w+\nlive webhook secret {2}whsec_\w+\nIt signs .* shown only now\.\n$/)
  const [liveKey, liveSecret] = firstLive.stdout.split("\n")
  expect(liveKey).toMatch(key("live"))
  expect(liveSecret).not.toContain(company.webhook_secret)
  const secondLive = await faturaInProcess(database, "keys", "create", id, "--live")
  succeededWith(secondLive, /^sk_live_\w+\n$/)

  const listed = await faturaInProcess(database, "keys", "list", id)
  const listing = / {2}created \d{4}-\d\d-\d\dT[\d:.]+Z {2}active/
  succeededWith(listed, new RegExp(`^(sk_(test|live)_[0-9A-Za-z]{8}…  (test|live)${listing.source}\n){3}$`))
  expect(listed.stdout).not.toContain(company.secret_key)
  const printed = listed.stdout.split("  ")[0]!
  expect(printed).toBe(`${company.secret_key.slice(0, 16)}…`)

  succeededWith(await faturaInProcess(database, "keys", "revoke", printed), `revoked ${printed}\n`)
  const prefix = printed.slice(0, -1)
  failedWith(await faturaInProcess(database, "keys", "revoke", prefix), `no active secret key has the prefix ${prefix}`)

  succeededWith(await faturaInProcess(database, "company", "block", id, "pix"), `company ${id}: pix blocked\n`)
  succeededWith(
    await faturaInProcess(database, "company", "pix-key", id, "+55 (11) 98888-7777"),
    `company ${id}: pix key +5511988887777\n`
  )

  const bankAccount = ["--bank-code", "341", "--agency", "0001", "--account", "12.345", "--digit", "x"]
  succeededWith(
    await faturaInProcess(database, "company", "bank-account", id, ...bankAccount, "--type", "poupanca"),
    `company ${id}: bank account 341 Itaú Unibanco S.A., agency 0001, account 12345-X (poupanca)\n`
  )
  failedWith(
    await faturaInProcess(
      database,
      "company",
      "bank-account",
      id,
      ...bankAccount.slice(2),
      "--bank-code",
      "999",
      "--type",
      "corrente"
    ),
    "--bank-code: no bank Fatura pays to has the code 999"
  )
  failedWith(
    await faturaInProcess(database, "company", "bank-account", "987654", ...bankAccount, "--type", "corrente"),
    "no company with id 987654"
  )

  succeededWith(
    await faturaInProcess(database, "company", "auto-withdrawal", id, "weekly:5"),
    `company ${id}: automatic withdrawals weekly:5\n`
  )
  failedWith(
    await faturaInProcess(database, "company", "auto-withdrawal", id, "weekly:6"),
    '"weekly:6" is no schedule: off, daily, weekly:<1-5> (Monday to Friday) or monthly:<1-28>'
  )

  failedWith(await faturaInProcess(database, "keys", "list", "987654"), "no company with id 987654")
  succeededWith(await faturaInProcess(database, "migrate"), "The database is up to date.\n")
  return { companyId: company.company_id, revokedKey: company.secret_key, liveKey: secondLive.stdout.trim() }
}
