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
import { spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import os from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import autocannon from "autocannon"
import pg from "pg"
import * as growth from "./growth.mjs"

const root = fileURLToPath(new URL("..", import.meta.url))
const fromEnv = (name, fallback) => process.env[name] ?? fallback
const numberFromEnv = (name, fallback) => {
  const value = Number(fromEnv(name, fallback))
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`)
  return value
}
const settings = {
  adminUrl: fromEnv("BENCH_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/postgres"),
  duration: numberFromEnv("BENCH_DURATION", 10),
  warmup: numberFromEnv("BENCH_WARMUP", 3),
  rounds: numberFromEnv("BENCH_ROUNDS", 2),
  connections: numberFromEnv("BENCH_CONNECTIONS", 32),
  seed: numberFromEnv("BENCH_SEED", 2000),
  seedEmbedded: numberFromEnv("BENCH_SEED_EMBEDDED", 300),
  payers: numberFromEnv("BENCH_PAYERS", 1000),
  samples: numberFromEnv("BENCH_SAMPLES", 200),
  sampleWarmup: numberFromEnv("BENCH_SAMPLE_WARMUP", 20)
}
const { values: args } = parseArgs({ options: { invoices: { type: "string" } } })
const invoices = args.invoices === undefined ? undefined : Number(args.invoices)
if (invoices !== undefined && !(Number.isInteger(invoices) && invoices > settings.seed)) {
  throw new Error(`--invoices must be a whole number above BENCH_SEED (${settings.seed})`)
}
// Issue 16's: near the hand-written baseline on Postgres, and a floor of requests/s on the embedded database.
const targets = {
  throughputRatio: 0.9,
  p99Ratio: 1.3,
  rssMb: 256,
  embeddedRps: { "Search PGlite": 1000, "Create PGlite": 300 }
}
const maxErrorRate = 0.01

const started = Date.now()
const log = (message) => process.stderr.write(`bench ${((Date.now() - started) / 1000).toFixed(0)}s: ${message}\n`)
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

// ---- cleanup: every process and the database, whatever happens ----

const processes = new Set()
const cleanups = []
let currentLoad
let cleaningUp

const cleanup = () => {
  cleaningUp ??= (async () => {
    currentLoad?.stop()
    await Promise.all([...processes].map((server) => stopProcess(server)))
    for (const step of cleanups.reverse()) {
      try {
        await step()
      } catch (error) {
        log(`cleanup: ${error.message}`)
      }
    }
  })()
  return cleaningUp
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    log(`${signal}: stopping`)
    cleanup().finally(() => process.exit(130))
  })
}

// ---- processes ----

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })

/** Starts `node <args>` (this very node binary, so the pid is the server's own) and keeps its output. */
const startProcess = (name, args, env) => {
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] })
  const server = { name, child, pid: child.pid, stdout: "", stderr: "", exited: false }
  child.stdout.setEncoding("utf8").on("data", (text) => {
    server.stdout = (server.stdout + text).slice(-65536)
  })
  child.stderr.setEncoding("utf8").on("data", (text) => {
    server.stderr = (server.stderr + text).slice(-16384)
  })
  server.exit = new Promise((resolve) =>
    child.once("exit", (code, signal) => {
      server.exited = true
      processes.delete(server)
      resolve({ code, signal })
    })
  )
  processes.add(server)
  return server
}

const stopProcess = async (server) => {
  if (server.exited) return
  server.child.kill("SIGTERM")
  const stopped = await Promise.race([server.exit.then(() => true), sleep(5000).then(() => false)])
  if (!stopped) {
    server.child.kill("SIGKILL")
    await server.exit
  }
}

const failure = (server, message) =>
  new Error(
    `${server.name}: ${message}\n--- stdout ---\n${server.stdout.slice(-4000)}\n--- stderr ---\n${server.stderr}`
  )

const waitUntilHealthy = async (server, url) => {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (server.exited) throw failure(server, "exited before answering /health")
    try {
      const response = await fetch(`${url}/health`)
      if (response.ok) return
    } catch {
      // not listening yet
    }
    await sleep(100)
  }
  throw failure(server, "did not answer /health within 60 s")
}

/** A process and its descendants (the workers of `fatura serve --workers N`), by pid. */
const processTree = (pid) => {
  let children = []
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    // gone
  }
  return [pid, ...children.flatMap(processTree)]
}

/** Peak resident set size (VmHWM) of a running process, with its workers' added, in MB. */
const peakRssMb = (server) =>
  processTree(server.pid).reduce((total, pid) => {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return total + (match === null ? Number.NaN : Number(match[1]) / 1024)
  }, 0)

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

// ---- requests ----

/** A valid CPF, formatted, for payer number `n`: the load spreads its invoices over many payers. */
const cpf = (n) => {
  const digits = String(100_000_001 + n * 9_973)
    .padStart(9, "0")
    .slice(0, 9)
    .split("")
    .map(Number)
  for (const length of [9, 10]) {
    let sum = 0
    for (let i = 0; i < length; i++) sum += digits[i] * (length + 1 - i)
    const rest = sum % 11
    digits.push(rest < 2 ? 0 : 11 - rest)
  }
  const text = digits.join("")
  return `${text.slice(0, 3)}.${text.slice(3, 6)}.${text.slice(6, 9)}-${text.slice(9)}`
}

const createBodies = Array.from({ length: settings.payers }, (_, n) =>
  JSON.stringify({
    method: "pix",
    total_price_cents: 12345,
    payer: { name: `Maria Souza ${n}`, cpf_cnpj: cpf(n), email: `maria${n}@example.com` },
    items: [{ name: "Pão de queijo", quantity: 3, unit_price: 4115 }]
  })
)

const seed = async (url, key, count) => {
  const secureIds = []
  let next = 0
  let failed
  const worker = async () => {
    while (failed === undefined && next < count) {
      const body = createBodies[next++ % createBodies.length]
      const response = await fetch(`${url}/api/v2/invoices`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body
      })
      const text = await response.text()
      if (response.status !== 201) failed = `seeding: ${response.status} ${text.slice(0, 500)}`
      else secureIds.push(JSON.parse(text).secureId)
    }
  }
  await Promise.all(Array.from({ length: 16 }, worker))
  if (failed !== undefined) throw new Error(failed)
  return secureIds
}

/** One autocannon run; `keep` says whether its numbers count (a warm-up's do not). */
const loadOnce = async (url, key, scenario, seconds) => {
  let next = 0
  const request =
    scenario.kind === "search"
      ? {
          method: "GET",
          setupRequest: (req) => {
            req.path = `/api/v2/invoices?id=${scenario.ids[next++ % scenario.ids.length]}`
            return req
          }
        }
      : {
          method: "POST",
          path: "/api/v2/invoices",
          setupRequest: (req) => {
            req.body = createBodies[next++ % createBodies.length]
            return req
          }
        }
  const latencies = []
  const instance = autocannon({
    url,
    connections: settings.connections,
    duration: seconds,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    requests: [request]
  })
  currentLoad = instance
  instance.on("response", (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime)
  })
  const result = await new Promise((resolve, reject) => instance.then(resolve, reject))
  currentLoad = undefined
  const failures = result.non2xx + result.errors + result.timeouts
  return {
    ok: result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    statusCodes: Object.keys(result.statusCodeStats ?? {}).join(","),
    errorRate: failures / Math.max(1, result["2xx"] + failures),
    seconds: result.duration,
    latencies
  }
}

const percentile = (sorted, p) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]

const emptyTotals = () => ({ ok: 0, non2xx: 0, errors: 0, seconds: 0, cpuMs: 0, latencies: [], rounds: [] })

/** CPU time (user + system) a process and its workers have used so far, in ms; ticks of 10 ms on Linux. */
const cpuMsOf = (pid) =>
  processTree(pid).reduce((total, each) => {
    const stat = readFileSync(`/proc/${each}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return total + (Number(fields[11]) + Number(fields[12])) * 10
  }, 0)

const summary = (totals) => {
  const sorted = Float64Array.from(totals.latencies).sort()
  return {
    rps: totals.ok / totals.seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    non2xx: totals.non2xx,
    errors: totals.errors,
    errorRate: (totals.non2xx + totals.errors) / Math.max(1, totals.ok + totals.non2xx + totals.errors),
    rounds: totals.rounds,
    cpuMsPerRequest: totals.cpuMs / Math.max(1, totals.ok)
  }
}

const invalidRuns = []

/** Loads each target in turn (service, baseline, service, baseline…), a warm-up before every measured run. */
const loadAlternately = async (scenario, servers, rounds) => {
  const totals = new Map(servers.map((server) => [server.label, emptyTotals()]))
  for (let round = 1; round <= rounds; round++) {
    for (const server of servers) {
      await loadOnce(server.url, server.key, scenario, settings.warmup)
      const total = totals.get(server.label)
      const cpuBefore = cpuMsOf(server.pid)
      const run = await loadOnce(server.url, server.key, scenario, settings.duration)
      const cpuMs = cpuMsOf(server.pid) - cpuBefore
      total.cpuMs += cpuMs
      total.ok += run.ok
      total.non2xx += run.non2xx
      total.errors += run.errors
      total.seconds += run.seconds
      for (const latency of run.latencies) total.latencies.push(latency)
      const rps = run.ok / run.seconds
      total.rounds.push(rps)
      const sorted = Float64Array.from(run.latencies).sort()
      log(
        `${scenario.name} · ${server.label} · round ${round}: ${rps.toFixed(0)} req/s, p99 ${percentile(sorted, 99).toFixed(1)} ms, ` +
          `${(cpuMs / Math.max(1, run.ok)).toFixed(2)} ms server CPU/req, non-2xx ${run.non2xx}, errors ${run.errors} ` +
          `(status ${run.statusCodes || "none"})`
      )
      if (run.errorRate > maxErrorRate) {
        const message = `${scenario.name} · ${server.label} · round ${round}: ${(run.errorRate * 100).toFixed(1)} % of the requests failed (non-2xx ${run.non2xx}, errors ${run.errors})`
        invalidRuns.push(message)
        log(`!!! ${message}`)
      }
    }
  }
  return Object.fromEntries([...totals].map(([label, total]) => [label, summary(total)]))
}

// ---- the report ----

const fixed = (value, digits) => (Number.isFinite(value) ? value.toFixed(digits) : "—")
const mark = (ok) => (ok ? "PASS" : "MISS")

const report = ({ machine, load, results }) => {
  const lines = []
  lines.push(`Machine: ${machine}; ${load}`)
  lines.push(
    `Load: autocannon, ${settings.connections} connections, ${settings.rounds} × ${settings.duration} s per server ` +
      `on Postgres (alternating, ${settings.warmup} s warm-up before each), 1 × ${settings.duration} s with ` +
      `workers and on PGlite; ` +
      "req/s counts 2xx only"
  )
  lines.push("")
  lines.push(
    "| Scenario | req/s service | req/s baseline | req/s ratio | p50 ms service | p50 ms baseline | " +
      "p99 ms service | p99 ms baseline | p99 ratio | peak RSS MB service | peak RSS MB baseline | non-2xx |"
  )
  lines.push("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
  for (const row of results) {
    const { service, baseline } = row
    const throughputRatio = baseline ? service.rps / baseline.rps : Number.NaN
    const p99Ratio = baseline ? service.p99 / baseline.p99 : Number.NaN
    lines.push(
      `| ${row.scenario} | ${fixed(service.rps, 0)} | ${fixed(baseline?.rps, 0)} | ${fixed(throughputRatio, 2)} | ` +
        `${fixed(service.p50, 1)} | ${fixed(baseline?.p50, 1)} | ${fixed(service.p99, 1)} | ${fixed(baseline?.p99, 1)} | ` +
        `${fixed(p99Ratio, 2)} | ${fixed(row.serviceRssMb, 0)} | ${fixed(row.baselineRssMb, 0)} | ` +
        `${service.non2xx + service.errors}${baseline ? ` / ${baseline.non2xx + baseline.errors}` : ""} |`
    )
  }
  lines.push("")
  lines.push(
    `| Target | ${results.map((row) => row.scenario).join(" | ")} |\n|---|${results.map(() => "---").join("|")}|`
  )
  const targetRow = (label, cell) => `| ${label} | ${results.map(cell).join(" | ")} |`
  lines.push(
    targetRow(`req/s ratio ≥ ${targets.throughputRatio}`, (row) =>
      row.baseline
        ? `${mark(row.service.rps / row.baseline.rps >= targets.throughputRatio)} (${fixed(row.service.rps / row.baseline.rps, 2)})`
        : "n/a"
    )
  )
  lines.push(
    targetRow(`p99 ratio ≤ ${targets.p99Ratio}`, (row) =>
      row.baseline
        ? `${mark(row.service.p99 / row.baseline.p99 <= targets.p99Ratio)} (${fixed(row.service.p99 / row.baseline.p99, 2)})`
        : "n/a"
    )
  )
  lines.push(
    targetRow(
      `embedded req/s ≥ ${Object.entries(targets.embeddedRps)
        .map(([scenario, floor]) => `${floor} (${scenario.split(" ")[0]})`)
        .join(", ")}`,
      (row) => {
        const floor = targets.embeddedRps[row.scenario]
        return floor === undefined ? "n/a" : `${mark(row.service.rps >= floor)} (${fixed(row.service.rps, 0)})`
      }
    )
  )
  lines.push(
    targetRow(
      `service peak RSS ≤ ${targets.rssMb} MB`,
      (row) => `${mark(row.serviceRssMb <= targets.rssMb)} (${fixed(row.serviceRssMb, 0)} MB)`
    )
  )
  lines.push("")
  for (const row of results) {
    const servers = [
      ["service", row.service],
      ["baseline", row.baseline]
    ].filter(([, result]) => result !== undefined)
    const rounds = servers.map(([label, result]) => `${label} ${result.rounds.map((rps) => rps.toFixed(0)).join(", ")}`)
    const cpu = servers.map(([label, result]) => `${label} ${result.cpuMsPerRequest.toFixed(2)} ms`)
    lines.push(
      `- ${row.scenario}: req/s per round in the order run: ${rounds.join("; ")}. ` +
        `Server CPU per 2xx request: ${cpu.join("; ")}`
    )
  }
  lines.push("")
  lines.push(
    "Peak RSS is VmHWM of the whole server process over all its scenarios (the Postgres rows share one service " +
      "and one baseline process); for the rows with workers, the sum of every process's peak. non-2xx counts " +
      "service / baseline."
  )
  if (invalidRuns.length > 0) {
    lines.push("")
    lines.push(`INVALID: runs with more than ${maxErrorRate * 100} % errors:`)
    for (const message of invalidRuns) lines.push(`  - ${message}`)
  }
  return lines.join("\n")
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
