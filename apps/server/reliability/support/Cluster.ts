// The local Postgres the reliability suite runs on: a fresh database per scenario (dropped at the end), plain
// queries for the checks, and stopping and starting the whole cluster for the outage scenario.
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { PgClient } from "@effect/sql-pg"
import { Effect, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"

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

const onAdmin = async <A>(use: (admin: Connection) => Promise<A>): Promise<A> => {
  const admin = connect(adminUrl)
  try {
    return await use(admin).catch((error: unknown) => {
      throw new Error(
        `the reliability suite needs a Postgres server where it may create databases at ${adminUrl} ` +
          `(set TEST_DATABASE_URL): ${String(error)}`
      )
    })
  } finally {
    await admin.close()
  }
}

const created: Array<string> = []

export interface Database {
  readonly name: string
  readonly url: string
}

/** A new, empty database on the server, remembered so that `dropDatabases` removes it. */
export const createDatabase = async (purpose: string): Promise<Database> => {
  const name = `fatura_reliability_${purpose}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`
  await onAdmin((admin) => admin.query(`CREATE DATABASE ${name}`))
  created.push(name)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return { name, url: url.toString() }
}

/** Every database this run created, for the final scan. */
export const databases = (): ReadonlyArray<Database> =>
  created.map((name) => {
    const url = new URL(adminUrl)
    url.pathname = `/${name}`
    return { name, url: url.toString() }
  })

export const dropDatabases = () =>
  onAdmin(async (admin) => {
    for (const name of created.splice(0)) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  })

/** Debian's name of the cluster behind `adminUrl` ("15/main"), for pg_ctlcluster. */
const clusterOf = () =>
  onAdmin(async (admin) => {
    const [row] = await admin.query("SHOW cluster_name")
    const [version, name] = String(row?.cluster_name ?? "").split("/")
    if (version === undefined || name === undefined || version === "" || name === "") {
      throw new Error(`the server at ${adminUrl} does not name its cluster (cluster_name): cannot stop and start it`)
    }
    return { version, name }
  })

export interface Cluster {
  readonly stop: () => Promise<void>
  readonly start: () => Promise<void>
}

/** Stops (fast: open sessions are ended) and starts the whole local cluster, as its administrator would. */
export const cluster = async (): Promise<Cluster> => {
  const { version, name } = await clusterOf()
  const ctl = (...args: Array<string>) =>
    run("pg_ctlcluster", ["--skip-systemctl-redirect", version, name, ...args], { timeout: 60_000 }).catch(
      (error: NodeJS.ErrnoException) => {
        throw error.code === "ENOENT"
          ? new Error(
              "the outage scenario stops and starts the Postgres cluster with pg_ctlcluster (Debian's " +
                "postgresql-common), which is not on this machine"
            )
          : error
      }
    )
  return {
    stop: async () => {
      await ctl("stop", "-m", "fast")
    },
    start: async () => {
      const status = await ctl("status").then(
        () => "running",
        () => "stopped"
      )
      if (status === "stopped") await ctl("start")
    }
  }
}
