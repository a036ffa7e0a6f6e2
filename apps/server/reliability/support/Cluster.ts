// The local Postgres the reliability suite runs on: a fresh database per scenario (dropped at the end), plain
// queries for the checks, and a cluster of the suite's own that the outage scenario stops and starts.
import { execFile } from "node:child_process"
import { chownSync, existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { PgClient } from "@effect/sql-pg"
import { Effect, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { freePort } from "../../test/support/ServerProcess.js"

const run = promisify(execFile)

/** The server the suite creates its databases on; the machine's local Postgres unless TEST_DATABASE_URL says. */
export const adminUrl = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres"

export type Row = Record<string, unknown>

export interface Connection {
  readonly query: (text: string, params?: ReadonlyArray<unknown>) => Promise<ReadonlyArray<Row>>
  readonly close: () => Promise<void>
}

export const connect = (url: string): Connection => {
  const runtime = ManagedRuntime.make(PgClient.layer({ url: Redacted.make(url), maxConnections: 2 }))
  return {
    query: (text, params = []) =>
      runtime.runPromise(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          return yield* sql.unsafe<Row>(text, params)
        })
      ),
    close: () => runtime.dispose()
  }
}

const onAdmin = async <A>(use: (admin: Connection) => Promise<A>, server = adminUrl): Promise<A> => {
  const admin = connect(server)
  try {
    return await use(admin).catch((error: unknown) => {
      throw new Error(
        `the reliability suite needs a Postgres server where it may create databases at ${server} ` +
          `(set TEST_DATABASE_URL): ${String(error)}`
      )
    })
  } finally {
    await admin.close()
  }
}

export interface Database {
  readonly name: string
  readonly url: string
}

const created: Array<Database & { readonly server: string }> = []
const clusters: Array<Cluster> = []

/** A new, empty database on the server `server` (the local one by default), remembered for the scan and `cleanUp`. */
export const createDatabase = async (purpose: string, server = adminUrl): Promise<Database> => {
  const name = `fatura_reliability_${purpose}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`
  await onAdmin((admin) => admin.query(`CREATE DATABASE ${name}`), server)
  const url = new URL(server)
  url.pathname = `/${name}`
  created.push({ name, url: url.toString(), server })
  return { name, url: url.toString() }
}

/** Every database this run created, for the final scan. */
export const databases = (): ReadonlyArray<Database> => created.map(({ name, url }) => ({ name, url }))

/** Drops every database this run created on the local server, and removes the clusters it made. */
export const cleanUp = async () => {
  const local = created.splice(0).filter((database) => database.server === adminUrl)
  await onAdmin(async (admin) => {
    for (const { name } of local) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  })
  for (const cluster of clusters.splice(0)) await cluster.remove()
}

/** The binaries of the local server's major version (Debian keeps each version's under /usr/lib/postgresql). */
const binariesOf = () =>
  onAdmin(async (admin) => {
    const [row] = await admin.query("SHOW server_version_num")
    const major = Math.floor(Number(row?.server_version_num) / 10_000)
    const bin = `/usr/lib/postgresql/${major}/bin`
    if (!existsSync(join(bin, "initdb"))) {
      throw new Error(`the outage scenario makes a Postgres cluster of its own with ${bin}/initdb, which is not there`)
    }
    return bin
  })

export interface Cluster {
  /** Where the suite creates its databases on this cluster. */
  readonly adminUrl: string
  readonly stop: () => Promise<void>
  readonly start: () => Promise<void>
  /** Stops it if it runs and deletes its files. */
  readonly remove: () => Promise<void>
}

/**
 * A Postgres cluster of the suite's own, of the local server's version, in a temporary directory and on a port of
 * its own, stopped (fast: open sessions are ended) and started as its administrator would: the outage takes down
 * nothing that other suites on this machine use.
 */
export const privateCluster = async (): Promise<Cluster> => {
  const bin = await binariesOf()
  const directory = mkdtempSync(join(tmpdir(), "fatura-reliability-cluster-"))
  const data = join(directory, "data")
  // Postgres refuses to run as root: under root, its commands run as the `postgres` user, who owns the directory.
  const owner: { readonly uid?: number; readonly gid?: number } =
    process.getuid?.() === 0
      ? {
          uid: Number((await run("id", ["-u", "postgres"])).stdout.trim()),
          gid: Number((await run("id", ["-g", "postgres"])).stdout.trim())
        }
      : {}
  if (owner.uid !== undefined && owner.gid !== undefined) chownSync(directory, owner.uid, owner.gid)
  const asOwner = (command: string, args: ReadonlyArray<string>) =>
    run(join(bin, command), [...args], { timeout: 60_000, cwd: directory, ...owner })
  await asOwner("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"])
  const port = await freePort()
  const ctl = (...args: Array<string>) => asOwner("pg_ctl", ["-D", data, "-w", "-t", "60", ...args])
  const options = `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1`
  const isRunning = () =>
    ctl("status").then(
      () => true,
      () => false
    )
  const start = async () => {
    if (!(await isRunning())) await ctl("start", "-o", options, "-l", join(directory, "server.log"))
  }
  await start()
  const cluster: Cluster = {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await ctl("stop", "-m", "fast")
    },
    start,
    remove: async () => {
      if (await isRunning()) await ctl("stop", "-m", "immediate")
      rmSync(directory, { recursive: true, force: true })
    }
  }
  clusters.push(cluster)
  return cluster
}
