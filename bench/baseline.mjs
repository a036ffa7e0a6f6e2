// The benchmark's baseline: the two endpoints of the service that `pnpm bench` loads (Search Transaction and Create
// Invoices by pix), written by hand with node:http and a pg.Pool, no framework. It sends the same SQL statements per
// request as the service (the repository's own texts, read from the persistence package by bench/baseline-sql.mjs),
// hashes the key, validates the body minimally and answers a JSON of about the service's size; it measures what the
// framework, the schemas and the layers cost on top.
//
// Env: DATABASE_URL (the service's database, already migrated: the baseline creates nothing), PORT, HOST.
import { createHash, randomUUID } from "node:crypto"
import { createServer } from "node:http"
import pg from "pg"
import { BEGIN, COMMIT, KEY_CACHE_MS, loadStatements, ROLLBACK, stepsOf } from "./baseline-sql.mjs"
import { invoiceJson, searchedClient } from "./support/baseline-json.mjs"
import { newPixInvoice } from "./support/baseline-pix.mjs"
import { validateCreate } from "./support/baseline-request.mjs"

// The repository's statements, checked against the steps before anything listens.
const steps = stepsOf(await loadStatements())

const { DATABASE_URL: databaseUrl, PORT: port = "3100", HOST: host = "127.0.0.1" } = process.env

const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, application_name: "fatura-baseline" })
pool.on("error", (error) => console.error("baseline: idle client error", error.message))

// Named statements, so that pg prepares each once per connection, as the service's driver does.
const statementNames = new Map()
const named = (text, values) => {
  let name = statementNames.get(text)
  if (name === undefined) {
    name = `baseline_${statementNames.size + 1}`
    statementNames.set(text, name)
  }
  return { name, text, values }
}

const firstRow = async (db, text, values) => (await db.query(named(text, values))).rows[0]

// ---- authentication: sha256 of the key, looked up in the database at most every KEY_CACHE_MS ----

const secretKeyPattern = /^sk_(test|live)_[0-9A-Za-z]{32}$/
const keyCache = new Map()

const authenticate = async (authorization) => {
  const key = authorization?.startsWith("Bearer ") ? authorization.slice(7).trim() : undefined
  if (key === undefined || !secretKeyPattern.test(key)) return undefined
  const hash = createHash("sha256").update(key).digest("hex")
  const now = Date.now()
  const cached = keyCache.get(hash)
  if (cached !== undefined && now - cached.at < KEY_CACHE_MS) return cached.row
  const row = await firstRow(pool, steps.keyLookup.sql, steps.keyLookup.params({ hash }))
  const found = row !== undefined && row.key_kind === "secret" && row.key_revoked_at === null ? row : undefined
  if (KEY_CACHE_MS > 0) keyCache.set(hash, { row: found, at: now })
  return found
}

// ---- the two endpoints ----

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const numericIdPattern = /^[1-9]\d{0,15}$/

const contextFor = (key, id) => ({
  companyId: key.key_company_id,
  mode: key.key_mode,
  id,
  now: new Date().toISOString(),
  rows: {}
})

const search = async (key, id) => {
  const searchSteps = numericIdPattern.test(id) ? steps.searchById : uuidPattern.test(id) ? steps.searchBySecureId : []
  if (searchSteps.length === 0) return [404, { code: "not_found", message: "no invoice with that id" }]
  const ctx = contextFor(key, id)
  for (const step of searchSteps) {
    ctx.rows[step.name] = await firstRow(pool, step.sql, step.params(ctx))
    if (step.name === "invoice" && ctx.rows.invoice === undefined) {
      return [404, { code: "not_found", message: "no invoice with that id" }]
    }
  }
  const row = ctx.rows.invoice
  const current = Object.fromEntries(
    Object.entries(row)
      .filter(([column]) => column.startsWith("co_"))
      .map(([column, value]) => [column.slice(3), value])
  )
  return [200, invoiceJson(current, row, row, searchedClient(row))]
}

const create = async (key, body) => {
  const request = validateCreate(body)
  if (typeof request === "string") return [400, { code: "invalid_request", message: request }]
  const ctx = contextFor(key, undefined)
  ctx.body = request
  const company = await firstRow(pool, steps.createCompany.sql, steps.createCompany.params(ctx))
  ctx.invoice = newPixInvoice(company, request, ctx.now)
  ctx.response = () => {
    const invoice = ctx.invoice
    return invoiceJson(
      company,
      company,
      {
        id: ctx.rows.invoice?.id,
        secure_id: invoice.secureId,
        method: "pix",
        status: "pending",
        amount: invoice.amount,
        installments: 1,
        refunded_amount: 0,
        refused_reason: null,
        postback_url: "",
        traceable: false,
        ip: null,
        metadata: null,
        external_ref: null,
        items: invoice.items,
        fee: invoice.fee,
        pix_qr_code: invoice.pix.qrCode,
        pix_txid: invoice.pix.txid,
        pix_expires_at: invoice.pix.expiresAt,
        token_checkout: invoice.tokenCheckout,
        created_at: ctx.now,
        updated_at: ctx.now,
        paid_at: null,
        timeline: [{ status: "pending", event: "invoice.created", created_at: ctx.now }],
        movements: [],
        refunds: []
      },
      ctx.rows.client
    )
  }
  const connection = await pool.connect()
  try {
    await connection.query(BEGIN)
    for (const step of steps.create) ctx.rows[step.name] = await firstRow(connection, step.sql, step.params(ctx))
    await connection.query(COMMIT)
  } catch (error) {
    await connection.query(ROLLBACK).catch(() => undefined)
    throw error
  } finally {
    connection.release()
  }
  return [201, ctx.response()]
}

const readBody = (request) =>
  new Promise((resolve, reject) => {
    const chunks = []
    let size = 0
    request.on("data", (chunk) => {
      size += chunk.length
      if (size > 1024 * 1024) reject(new Error("body too large"))
      else chunks.push(chunk)
    })
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    request.on("error", reject)
  })

const route = async (request) => {
  const url = new URL(request.url ?? "/", "http://baseline")
  if (url.pathname === "/health") return [200, { status: "ok" }]
  if (url.pathname !== "/api/v2/invoices") return [404, { code: "not_found", message: "no such route" }]
  if (request.method !== "GET" && request.method !== "POST") {
    return [405, { code: "method_not_allowed", message: "GET or POST" }]
  }
  const company = await authenticate(request.headers.authorization)
  if (company === undefined) return [401, { code: "unauthenticated", message: "unknown or revoked secret key" }]
  if (request.method === "GET") return search(company, url.searchParams.get("id") ?? "")
  let body
  try {
    body = JSON.parse(await readBody(request))
  } catch {
    return [400, { code: "invalid_request", message: "the body must be JSON" }]
  }
  return create(company, body)
}

const server = createServer((request, response) => {
  route(request)
    .catch((error) => {
      console.error("baseline:", error)
      return [500, { code: "internal_error", message: "internal error" }]
    })
    .then(([status, json]) => {
      const text = JSON.stringify(json)
      response.writeHead(status, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(text),
        "x-request-id": randomUUID()
      })
      response.end(text)
    })
})

server.listen(Number(port), host, () => console.log(`baseline listening on ${port}`))

const stop = () => {
  server.close()
  server.closeAllConnections?.()
  pool.end().finally(() => process.exit(0))
}
process.on("SIGTERM", stop)
process.on("SIGINT", stop)
