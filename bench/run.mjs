// `pnpm bench`: the service against a hand-written baseline (bench/baseline.mjs) on the same fresh Postgres
// database, loaded alternately with autocannon, then the service alone on its embedded database (PGlite). Prints a
// Markdown report: requests/s, latency, peak RSS and the ratios to the baseline, with the targets marked. Beside the
// baseline the service runs as one process (`--workers 1`); then, on the same database, as one worker per core (the
// default of `--workers`), alone, for the all-cores figure.
// Measures, does not judge: exits 0 whatever the targets say (1 only when a run could not be measured).
//
// Env (all optional): BENCH_ADMIN_URL (a Postgres URL whose server gets the fresh database; default
// postgres://postgres@127.0.0.1:5432/postgres), BENCH_DURATION (s, 10), BENCH_WARMUP (s, 3), BENCH_ROUNDS (2),
// BENCH_CONNECTIONS (32), BENCH_SEED (2000), BENCH_SEED_EMBEDDED (300), BENCH_PAYERS (1000: the creates rotate over
// that many payers; with 1 every create upserts the same client row, and its row lock serializes them).
//
// `pnpm bench --invoices N` measures something else: how the reads of one company cost as its history grows from
// BENCH_SEED invoices to N (bench/growth.mjs), on Postgres. Env: BENCH_SAMPLES (200 timed requests per read),
// BENCH_SAMPLE_WARMUP (20).
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import os from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import pg from "pg"
import { loadStatements, stepsOf } from "./baseline-sql.mjs"
import * as growth from "./growth.mjs"
import { invalidRuns, loadAlternately, seed } from "./support/load.mjs"
import {
  cleanup,
  cleanups,
  failure,
  freePort,
  peakRssMb,
  startProcess,
  stopProcess,
  waitUntilHealthy
} from "./support/processes.mjs"
import { report } from "./support/report.mjs"
import { log, settings, sleep, started } from "./support/settings.mjs"

const { values: args } = parseArgs({ options: { invoices: { type: "string" } } })
const invoices = args.invoices === undefined ? undefined : Number(args.invoices)
if (invoices !== undefined && !(Number.isInteger(invoices) && invoices > settings.seed)) {
  throw new Error(`--invoices must be a whole number above BENCH_SEED (${settings.seed})`)
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    log(`${signal}: stopping`)
    cleanup().finally(() => process.exit(130))
  })
}

// The baseline sends the repository's statements: refuse to start, before any database or process, if they no longer
// fit its steps.
stepsOf(await loadStatements())

// ---- the services ----

const startService = async (name, database, serveArgs = []) => {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  // At the service's default log level (info: an access-log line per request), as it runs unless told otherwise.
  const env = { ...process.env, PORT: String(port), HOST: "127.0.0.1", PUBLIC_BASE_URL: url }
  delete env.LOG_LEVEL
  // No per-key rate limit in the way of the load (the setting is ignored by a service without one).
  env.FATURA_RATE_LIMIT = "1000000000"
  delete env.DATABASE_URL
  delete env.FATURA_DATA_DIR
  Object.assign(env, database)
  const server = startProcess(name, ["apps/server/dist/main.js", "serve", ...serveArgs], env)
  await waitUntilHealthy(server, url)
  return { server, url, env }
}

const keyPattern = /sk_test_[0-9A-Za-z]{32}/

/** The demo company's key from the start banner, or (no banner, as on Postgres) a company made with the CLI. */
const secretKeyOf = async (service) => {
  await sleep(200)
  const printed = keyPattern.exec(service.server.stdout)
  if (printed !== null) return printed[0]
  const cli = startProcess(
    "fatura company create",
    [
      "apps/server/dist/main.js",
      "company",
      "create",
      "--name",
      "Loja Benchmark Ltda",
      "--cnpj",
      "11.222.333/0001-81",
      "--email",
      "bench@example.com",
      "--json"
    ],
    service.env
  )
  const { code } = await cli.exit
  const created = keyPattern.exec(cli.stdout)
  if (code !== 0 || created === null) throw failure(cli, `exited with ${code} and printed no sk_test_ key`)
  return created[0]
}

// ---- the benchmark ----

const adminQuery = async (sql) => {
  const client = new pg.Client({ connectionString: settings.adminUrl })
  client.on("error", () => undefined)
  await client.connect()
  try {
    return await client.query(sql)
  } finally {
    await client.end()
  }
}

/** A new database on the admin URL's server, dropped at the end. */
const freshDatabase = async () => {
  const database = `fatura_bench_${randomBytes(6).toString("hex")}`
  await adminQuery(`CREATE DATABASE ${database}`)
  cleanups.push(async () => {
    await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
    log(`dropped database ${database}`)
  })
  const databaseUrl = new URL(settings.adminUrl)
  databaseUrl.pathname = `/${database}`
  log(`database ${database}`)
  return databaseUrl
}

const postgresScenarios = async (results) => {
  const databaseUrl = await freshDatabase()
  const service = await startService("service (Postgres)", { DATABASE_URL: databaseUrl.href }, ["--workers", "1"])
  const key = await secretKeyOf(service)
  log(`service pid ${service.server.pid} on ${service.url}; seeding ${settings.seed} pix invoices`)
  const ids = await seed(service.url, key, settings.seed)
  const db = new pg.Client({ connectionString: databaseUrl.href })
  db.on("error", () => undefined) // the cleanup's DROP … WITH (FORCE) may end it
  await db.connect()
  await db.query("ANALYZE")
  await db.end()

  const basePort = await freePort()
  const baselineUrl = `http://127.0.0.1:${basePort}`
  const baseline = startProcess("baseline", ["bench/baseline.mjs"], {
    ...process.env,
    DATABASE_URL: databaseUrl.href,
    PORT: String(basePort),
    HOST: "127.0.0.1"
  })
  await waitUntilHealthy(baseline, baselineUrl)
  log(`baseline pid ${baseline.pid} on ${baselineUrl}`)

  // Both answer the same search with 200 and about the same size.
  for (const [label, url] of [
    ["service", service.url],
    ["baseline", baselineUrl]
  ]) {
    const response = await fetch(`${url}/api/v2/invoices?id=${ids[0]}`, { headers: { authorization: `Bearer ${key}` } })
    const size = (await response.arrayBuffer()).byteLength
    if (response.status !== 200) throw new Error(`${label}: search answered ${response.status}`)
    log(`${label}: search 200, ${size} bytes`)
  }

  const servers = [
    { label: "service", url: service.url, key, pid: service.server.pid },
    { label: "baseline", url: baselineUrl, key, pid: baseline.pid }
  ]
  const search = await loadAlternately({ name: "Search Postgres", kind: "search", ids }, servers, settings.rounds)
  const create = await loadAlternately({ name: "Create Postgres", kind: "create" }, servers, settings.rounds)
  const serviceRssMb = peakRssMb(service.server)
  const baselineRssMb = peakRssMb(baseline)
  results.push({ scenario: "Search Postgres", ...search, serviceRssMb, baselineRssMb })
  results.push({ scenario: "Create Postgres", ...create, serviceRssMb, baselineRssMb })
  await stopProcess(baseline)
  await stopProcess(service.server)
  log("stopped the service and the baseline")

  // The same service on every core (the default of `fatura serve` on Postgres), alone: no baseline uses them all.
  const cores = os.availableParallelism()
  const allCores = await startService(`service (Postgres, ${cores} workers)`, { DATABASE_URL: databaseUrl.href })
  log(`service pid ${allCores.server.pid} with ${cores} workers on ${allCores.url}`)
  const workers = [{ label: "service", url: allCores.url, key, pid: allCores.server.pid }]
  const searchAll = await loadAlternately(
    { name: `Search Postgres, ${cores} workers`, kind: "search", ids },
    workers,
    1
  )
  const createAll = await loadAlternately({ name: `Create Postgres, ${cores} workers`, kind: "create" }, workers, 1)
  const allCoresRssMb = peakRssMb(allCores.server)
  results.push({
    scenario: `Search Postgres, ${cores} workers`,
    ...searchAll,
    serviceRssMb: allCoresRssMb,
    baselineRssMb: Number.NaN
  })
  results.push({
    scenario: `Create Postgres, ${cores} workers`,
    ...createAll,
    serviceRssMb: allCoresRssMb,
    baselineRssMb: Number.NaN
  })
  await stopProcess(allCores.server)
}

const embeddedScenarios = async (results) => {
  const dataDir = mkdtempSync(join(os.tmpdir(), "fatura-bench-"))
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
  const service = await startService("service (PGlite)", { FATURA_DATA_DIR: dataDir })
  const key = await secretKeyOf(service)
  log(`embedded service pid ${service.server.pid} in ${dataDir}; seeding ${settings.seedEmbedded} pix invoices`)
  const ids = await seed(service.url, key, settings.seedEmbedded)
  const servers = [{ label: "service", url: service.url, key, pid: service.server.pid }]
  const search = await loadAlternately({ name: "Search PGlite", kind: "search", ids }, servers, 1)
  const create = await loadAlternately({ name: "Create PGlite", kind: "create" }, servers, 1)
  const serviceRssMb = peakRssMb(service.server)
  results.push({ scenario: "Search PGlite", ...search, serviceRssMb, baselineRssMb: Number.NaN })
  results.push({ scenario: "Create PGlite", ...create, serviceRssMb, baselineRssMb: Number.NaN })
  await stopProcess(service.server)
}

/** `--invoices N`: one company's reads at BENCH_SEED invoices and at N (bench/growth.mjs). */
const growthStudy = async (total) => {
  const databaseUrl = await freshDatabase()
  // One process: every request meets the same warm caches.
  const service = await startService("service (Postgres)", { DATABASE_URL: databaseUrl.href }, ["--workers", "1"])
  // Three companies: the invoices that the seeding copies, a small history, a large one.
  const keys = [await secretKeyOf(service), await secretKeyOf(service), await secretKeyOf(service)]
  const db = new pg.Client({ connectionString: databaseUrl.href })
  db.on("error", () => undefined) // the cleanup's DROP … WITH (FORCE) may end it
  await db.connect()
  cleanups.push(() => db.end())
  log(`service pid ${service.server.pid} on ${service.url}`)
  const report = await growth.study({
    db,
    url: service.url,
    keys,
    small: settings.seed,
    total,
    warmup: settings.sampleWarmup,
    samples: settings.samples,
    target: 1.2,
    log
  })
  await stopProcess(service.server)
  return report
}

const main = async () => {
  const cpus = os.cpus()
  const { rows } = await adminQuery("SELECT version()")
  const postgres = rows[0].version.split(" on ")[0]
  const machine =
    `${cpus[0]?.model.trim() ?? "unknown CPU"} × ${cpus.length} cores, ` +
    `${(os.totalmem() / 1024 ** 3).toFixed(1)} GB RAM, Node ${process.version}, ${postgres}, ${os.platform()} ${os.release()}`
  log(machine)
  const loadBefore = os.loadavg()[0]
  if (invoices !== undefined) {
    const study = await growthStudy(invoices)
    await cleanup()
    const load = `1-minute load average before ${loadBefore.toFixed(2)}, after ${os.loadavg()[0].toFixed(2)}`
    process.stdout.write(`\nMachine: ${machine}; ${load}\n\n${study}\n\n`)
    log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`)
    return 0
  }
  const results = []
  await postgresScenarios(results)
  await embeddedScenarios(results)
  await cleanup()
  const load = `1-minute load average before ${loadBefore.toFixed(2)}, after ${os.loadavg()[0].toFixed(2)}`
  process.stdout.write(`\n${report({ machine, load, results })}\n\n`)
  log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`)
  return invalidRuns.length === 0 ? 0 : 1
}

main().then(
  (code) => process.exit(code),
  async (error) => {
    log(`failed: ${error.stack ?? error}`)
    await cleanup()
    process.exit(1)
  }
)
