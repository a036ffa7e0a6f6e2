// `node bench/work.mjs`: the work one request costs the server, counted rather than timed, so that it can be compared
// on a machine others are loading: fiber steps and bytes allocated per request (bench/work-server.mjs counts them in
// the server), for a pix create, a Search, a 404 and /health, one request at a time after a warm-up. CPU time per
// request is printed too, as a rough figure. Needs apps/server built (`tsc --build apps/server`) and Postgres.
//
// Env (all optional): BENCH_ADMIN_URL (as bench/run.mjs: the server that gets a fresh database, dropped at the end),
// BENCH_REQUESTS (500 measured requests per scenario), BENCH_WARMUP_REQUESTS (300), LOG_LEVEL (the service's default,
// info, when unset).
import { execFileSync, fork } from "node:child_process"
import { randomBytes } from "node:crypto"
import { createServer } from "node:net"
import { fileURLToPath } from "node:url"
import pg from "pg"

const root = fileURLToPath(new URL("..", import.meta.url))
const fromEnv = (name, fallback) => process.env[name] ?? fallback
const adminUrl = fromEnv("BENCH_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/postgres")
const requests = Number(fromEnv("BENCH_REQUESTS", 500))
const warmup = Number(fromEnv("BENCH_WARMUP_REQUESTS", 300))

const admin = async (sql) => {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })

const database = `fatura_work_${randomBytes(6).toString("hex")}`
const databaseUrl = new URL(adminUrl)
databaseUrl.pathname = `/${database}`
const port = await freePort()
const url = `http://127.0.0.1:${port}`
const env = { ...process.env, DATABASE_URL: databaseUrl.href, PORT: String(port), HOST: "127.0.0.1" }
Object.assign(env, { PUBLIC_BASE_URL: url, FATURA_RATE_LIMIT: "1000000000" })
delete env.FATURA_DATA_DIR

await admin(`CREATE DATABASE ${database}`)
const server = fork(new URL("work-server.mjs", import.meta.url), [], { cwd: root, env, stdio: "pipe" })
let logged = 0
server.stdout.on("data", (chunk) => {
  logged += chunk.length
})
let errors = ""
server.stderr.on("data", (chunk) => {
  errors = (errors + chunk).slice(-4000)
})

const ask = (message) =>
  new Promise((resolve) => {
    server.once("message", resolve)
    server.send(message)
  })

try {
  for (let tries = 0; ; tries++) {
    const healthy = await fetch(`${url}/health`).then(
      (response) => response.ok,
      () => false
    )
    if (healthy) break
    if (tries > 600 || server.exitCode !== null) throw new Error(`the server did not start:\n${errors}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const created = execFileSync(
    process.execPath,
    [
      "apps/server/dist/main.js",
      "company",
      "create",
      "--name",
      "Loja Trabalho Ltda",
      "--cnpj",
      "11.222.333/0001-81"
    ].concat(["--email", "work@example.com", "--json"]),
    { cwd: root, env, encoding: "utf8" }
  )
  process.stderr.write("work: the server answers; made a company\n")
  const key = /sk_test_[0-9A-Za-z]{32}/.exec(created)[0]
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" }
  const pixBody = (n) =>
    JSON.stringify({
      method: "pix",
      total_price_cents: 12345,
      payer: { name: `Maria Souza ${n}`, cpf_cnpj: "111.444.777-35", email: `maria${n}@example.com` },
      items: [{ name: "Pão de queijo", quantity: 3, unit_price: 4115 }]
    })
  const ids = []
  const scenarios = {
    "Create (pix)": async (n) => {
      const response = await fetch(`${url}/api/v2/invoices`, { method: "POST", headers, body: pixBody(n) })
      const body = await response.json()
      if (response.status !== 201) throw new Error(`create: ${response.status} ${JSON.stringify(body)}`)
      ids.push(body.secureId)
    },
    Search: async (n) => {
      const response = await fetch(`${url}/api/v2/invoices?id=${ids[n % ids.length]}`, { headers })
      if (response.status !== 200) throw new Error(`search: ${response.status}`)
      await response.arrayBuffer()
    },
    "Not found (404)": async () => {
      const response = await fetch(`${url}/no/such/route`)
      if (response.status !== 404) throw new Error(`404: ${response.status}`)
      await response.arrayBuffer()
    },
    "/health": async () => {
      const response = await fetch(`${url}/health`)
      if (response.status !== 200) throw new Error(`health: ${response.status}`)
      await response.arrayBuffer()
    }
  }
  const rows = []
  for (const [name, request] of Object.entries(scenarios)) {
    process.stderr.write(`work: ${name}\n`)
    for (let n = 0; n < warmup; n++) await request(n)
    const loggedBefore = logged
    await ask("start")
    for (let n = 0; n < requests; n++) await request(warmup + n)
    const counted = await ask("stop")
    rows.push(
      `| ${name} | ${(counted.steps / requests).toFixed(0)} | ${(counted.allocatedBytes / requests / 1024).toFixed(1)} | ` +
        `${(counted.cpuMicros / requests / 1000).toFixed(2)} | ${((logged - loggedBefore) / requests).toFixed(0)} |`
    )
  }
  console.log(
    `LOG_LEVEL ${fromEnv("LOG_LEVEL", "(default: info)")}, ${requests} requests per scenario after ${warmup}:\n\n` +
      "| Request | fiber steps | KB allocated | ms CPU (noisy) | bytes logged |\n|---|---|---|---|---|\n" +
      rows.join("\n")
  )
} finally {
  server.kill("SIGTERM")
  await new Promise((resolve) => (server.exitCode === null ? server.once("exit", resolve) : resolve()))
  await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
}
