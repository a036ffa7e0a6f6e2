// The built `fatura` program's administrative commands run as an operator runs them, each a process of its own: what
// each printed on stdout and on stderr, and its exit code. `administer` runs every such command once and holds what
// each must print, so that the same run proves the same output and exit codes on any database, with or without a
// running server.
import { execFile } from "node:child_process"
import { join } from "node:path"
import { expect } from "vitest"
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
 * Every administrative command once, as SPEC 12.2 has them, on `database`: a company registered, its keys created,
 * listed, revoked by the prefix `keys list` printed (pasted back as printed, then again without its ellipsis, which
 * no active key has any more), blocked, its pix key replaced, an unknown company refused, the database migrated. Returns the company's id, its
 * revoked test key and a live key.
 */
export const administer = async (database: DatabaseEnv) => {
  const created = await fatura(
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
  const firstLive = await fatura(database, "keys", "create", id, "--live")
  succeededWith(firstLive, /^sk_live_\w+\nlive webhook secret {2}whsec_\w+\nIt signs .* shown only now\.\n$/)
  const [liveKey, liveSecret] = firstLive.stdout.split("\n")
  expect(liveKey).toMatch(key("live"))
  expect(liveSecret).not.toContain(company.webhook_secret)
  const secondLive = await fatura(database, "keys", "create", id, "--live")
  succeededWith(secondLive, /^sk_live_\w+\n$/)

  const listed = await fatura(database, "keys", "list", id)
  const listing = / {2}created \d{4}-\d\d-\d\dT[\d:.]+Z {2}active/
  succeededWith(listed, new RegExp(`^(sk_(test|live)_[0-9A-Za-z]{8}…  (test|live)${listing.source}\n){3}$`))
  expect(listed.stdout).not.toContain(company.secret_key)
  const printed = listed.stdout.split("  ")[0]!
  expect(printed).toBe(`${company.secret_key.slice(0, 16)}…`)

  succeededWith(await fatura(database, "keys", "revoke", printed), `revoked ${printed}\n`)
  const prefix = printed.slice(0, -1)
  failedWith(await fatura(database, "keys", "revoke", prefix), `no active secret key has the prefix ${prefix}`)

  succeededWith(await fatura(database, "company", "block", id, "pix"), `company ${id}: pix blocked\n`)
  succeededWith(
    await fatura(database, "company", "pix-key", id, "+55 (11) 98888-7777"),
    `company ${id}: pix key +5511988887777\n`
  )

  failedWith(await fatura(database, "keys", "list", "987654"), "no company with id 987654")
  succeededWith(await fatura(database, "migrate"), "The database is up to date.\n")
  return { companyId: company.company_id, revokedKey: company.secret_key, liveKey: secondLive.stdout.trim() }
}
