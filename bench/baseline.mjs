// The benchmark's baseline: the two endpoints of the service that `pnpm bench` loads (Search Transaction and Create
// Invoices by pix), written by hand with node:http and a pg.Pool, no framework. It sends the same SQL statements per
// request as the service (bench/baseline-sql.mjs), hashes the key, validates the body minimally and answers a JSON
// of about the service's size; it measures what the framework, the schemas and the layers cost on top.
//
// Env: DATABASE_URL (the service's database, already migrated: the baseline creates nothing), PORT, HOST.
import { createHash, randomBytes, randomUUID } from "node:crypto"
import { createServer } from "node:http"
import pg from "pg"
import {
  BEGIN,
  COMMIT,
  CREATE_COMPANY_STEP,
  CREATE_STEPS,
  KEY_CACHE_MS,
  KEY_LOOKUP,
  ROLLBACK,
  SEARCH_BY_ID_STEPS,
  SEARCH_BY_SECURE_ID_STEPS
} from "./baseline-sql.mjs"

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
  const row = await firstRow(pool, KEY_LOOKUP, [hash])
  const found = row !== undefined && row.key_kind === "secret" && row.key_revoked_at === null ? row : undefined
  if (KEY_CACHE_MS > 0) keyCache.set(hash, { row: found, at: now })
  return found
}

// ---- the create body: parsed and validated minimally ----

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

const checkDigitsOk = (digits, weightsFrom) => {
  for (let position = digits.length - 2; position < digits.length; position++) {
    let sum = 0
    for (let i = 0; i < position; i++) sum += Number(digits[i]) * weightsFrom(position, i)
    const rest = sum % 11
    if (Number(digits[position]) !== (rest < 2 ? 0 : 11 - rest)) return false
  }
  return true
}

const documentOf = (text) => {
  if (typeof text !== "string") return undefined
  const digits = text.replace(/[.\-/\s]/g, "")
  if (!/^\d+$/.test(digits) || /^(\d)\1+$/.test(digits)) return undefined
  if (digits.length === 11 && checkDigitsOk(digits, (position, i) => position + 1 - i)) {
    return { type: "cpf", number: digits }
  }
  if (digits.length === 14 && checkDigitsOk(digits, (position, i) => ((position - 1 - i) % 8) + 2)) {
    return { type: "cnpj", number: digits }
  }
  return undefined
}

const isCount = (value, min) => Number.isSafeInteger(value) && value >= min

/** The create request, or a string saying what is wrong with it. */
const validateCreate = (body) => {
  if (body === null || typeof body !== "object") return "the body must be a JSON object"
  if (body.method !== "pix") return "method: only pix is served by the baseline"
  if (!isCount(body.total_price_cents, 1)) return "total_price_cents: must be a positive integer"
  const payer = body.payer
  if (payer === null || typeof payer !== "object") return "payer: required"
  if (typeof payer.name !== "string" || payer.name.trim() === "") return "payer.name: required"
  const document = documentOf(payer.cpf_cnpj)
  if (document === undefined) return "payer.cpf_cnpj: invalid"
  if (typeof payer.email !== "string" || !emailPattern.test(payer.email)) return "payer.email: invalid"
  if (!Array.isArray(body.items) || body.items.length === 0) return "items: at least one"
  let sum = 0
  for (const item of body.items) {
    if (item === null || typeof item !== "object" || typeof item.name !== "string") return "items: name required"
    if (!isCount(item.quantity, 1) || !isCount(item.unit_price, 0)) return "items: quantity and unit_price"
    sum += item.quantity * item.unit_price
  }
  if (sum !== body.total_price_cents) return "total_price_cents: must be the sum of the items"
  return {
    amount: body.total_price_cents,
    payer: { name: payer.name.trim(), email: payer.email, documentType: document.type, document: document.number },
    items: body.items.map((item) => ({ title: item.name, quantity: item.quantity, unitPrice: item.unit_price }))
  }
}

// ---- what a new pix invoice needs: fee split, txid, BR Code, checkout token ----

const percentOf = (amount, percentage) => Math.round((amount * percentage) / 100)

const feeOf = (plan, amount) => {
  const estimatedFee = percentOf(amount, plan.pix.spreadPercentage) + plan.pix.fixedAmount
  const valueAdq = Math.min(percentOf(amount, plan.acquirerPercentage.pix), estimatedFee)
  const valueIndication = Math.min(percentOf(amount, plan.referrerPercentage), estimatedFee - valueAdq)
  return {
    valueAdq,
    netAmount: amount - estimatedFee,
    valueTotal: amount,
    fixedAmount: plan.pix.fixedAmount,
    valueSeller: amount - estimatedFee,
    estimatedFee,
    valuePlatform: estimatedFee - valueAdq - valueIndication,
    valueIndication,
    spreadPercentage: plan.pix.spreadPercentage
  }
}

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const randomBase62 = (length) => Array.from(randomBytes(length), (byte) => base62[byte % 62]).join("")

const crc16 = (payload) => {
  let crc = 0xffff
  for (const byte of Buffer.from(payload, "utf8")) {
    crc ^= byte << 8
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
  }
  return crc.toString(16).toUpperCase().padStart(4, "0")
}

const field = (id, value) => `${id}${String(value.length).padStart(2, "0")}${value}`

const brCode = (pixKey, merchant, amount, txid) => {
  const payload = [
    field("00", "01"),
    field("01", "12"),
    field("26", field("00", "br.gov.bcb.pix") + field("01", pixKey)),
    field("52", "0000"),
    field("53", "986"),
    field("54", (amount / 100).toFixed(2)),
    field("58", "BR"),
    field(
      "59",
      merchant
        .normalize("NFD")
        .replace(/[^A-Za-z0-9 ]/g, "")
        .slice(0, 25) || "FATURA"
    ),
    field("60", "SAO PAULO"),
    field("62", field("05", txid)),
    "6304"
  ].join("")
  return payload + crc16(payload)
}

const newPixInvoice = (company, request, now) => {
  const txid = randomBase62(25)
  return {
    secureId: randomUUID(),
    eventId: `evt_${randomUUID()}`,
    amount: request.amount,
    items: request.items.map((item) => ({ ...item, tangible: false, description: null })),
    payer: {
      name: request.payer.name,
      email: request.payer.email,
      phone: null,
      address: { zip: null, city: null, line: null, state: null, number: null, complement: null },
      document: { type: request.payer.documentType, number: request.payer.document }
    },
    tokenCheckout: randomBytes(32).toString("base64url"),
    fee: feeOf(company.fee_plan, request.amount),
    pix: {
      qrCode: brCode(company.pix_key, company.fantasy_name, request.amount, txid),
      txid,
      expiresAt: new Date(Date.parse(now) + 24 * 3600 * 1000).toISOString()
    }
  }
}

// ---- the response: built crudely from the rows, about the size and shape of the service's ----

const enterpriseOf = (company, totals) => ({
  id: Number(company.id),
  cnpj: company.cnpj.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, "$1.$2.$3/$4-$5"),
  company_type: company.company_type,
  corporate_reason: company.corporate_reason,
  fantasy_name: company.fantasy_name,
  url_website: company.url_website ?? "",
  address: company.address_street ?? "",
  address_city: company.address_city ?? "",
  address_number: company.address_number ?? "",
  address_postal_code: company.address_postal_code ?? "",
  address_province: company.address_province ?? "",
  address_state: company.address_state ?? "",
  bank_account: company.bank_account ?? "",
  bank_agency: company.bank_agency ?? "",
  bank_digit: company.bank_digit ?? "",
  bank_name: company.bank_name ?? "",
  bank_type: company.bank_type ?? "corrente",
  amount_invoice_total: Number(totals?.amount_invoice_total ?? 0),
  amount_invoices_competicion: Number(totals?.amount_invoices_competicion ?? 0),
  balance_bank_slip: Number(totals?.balance_bank_slip ?? 0),
  balance_card: Number(totals?.balance_card ?? 0),
  balance_pix: Number(totals?.balance_pix ?? 0),
  blocked_bank_slip: company.blocked_bank_slip,
  blocked_card: company.blocked_card,
  blocked_pix: company.blocked_pix,
  blocked_processing: company.blocked_processing,
  blocked_sake: company.blocked_sake,
  blocked_system: company.blocked_system,
  is_custom: company.is_custom,
  create_at: company.created_at,
  update_at: company.updated_at,
  is_active_3ds: company.is_active_3ds
})

/** `i` holds the invoice's columns (named as in the invoices table), `client` the client's. */
const invoiceJson = (company, totals, i, client) => {
  const fee = i.fee ?? {}
  const isPix = i.method === "pix"
  return {
    id: Number(i.id),
    secureId: i.secure_id,
    companyId: Number(company.id),
    amount: Number(i.amount),
    installments: i.installments,
    paymentMethod: i.method,
    status: i.status,
    createdAt: i.created_at,
    updatedAt: i.updated_at,
    paidAt: i.paid_at,
    refundedAmount: Number(i.refunded_amount),
    refusedReason: i.refused_reason,
    postbackUrl: i.postback_url ?? "",
    traceable: i.traceable,
    boleto: null,
    card: null,
    card_associate: null,
    delivery: null,
    shipping: null,
    ip: i.ip,
    metadata: i.metadata,
    externalRef: i.external_ref,
    financial_movements: i.movements ?? [],
    refunds: i.refunds ?? [],
    splits: [],
    timeline: i.timeline ?? [],
    items: (i.items ?? []).map((item) => ({
      title: item.title,
      quantity: item.quantity,
      unitPrice: item.unitPrice,
      tangible: item.tangible,
      externalRef: null
    })),
    pix: isPix ? { qrCode: i.pix_qr_code, txid: i.pix_txid, expiresAt: i.pix_expires_at } : null,
    fee: {
      estimatedFee: fee.estimatedFee,
      fixedAmount: fee.fixedAmount,
      netAmount: fee.netAmount,
      spreadPercentage: fee.spreadPercentage
    },
    client: {
      id: Number(client.id),
      name: client.name,
      email: client.email,
      phone: client.phone ?? "",
      cpf_cnpj: client.document_number,
      created_at: client.created_at,
      updated_at: client.updated_at
    },
    customer: {
      id: Number(client.id),
      name: client.name,
      email: client.email,
      phone: client.phone ?? "",
      birthdate: null,
      createdAt: client.created_at,
      externalRef: null,
      document: { number: client.document_number, type: client.document_type },
      address: {
        street: "",
        streetNumber: "",
        neighborhood: "",
        city: "",
        state: "",
        zipCode: "",
        complement: null,
        country: "BR"
      }
    },
    enterprise: enterpriseOf(company, totals),
    invoice: {
      id: Number(i.id),
      invoice_id: i.secure_id,
      invoice_id_external: null,
      invoice_id_external2: null,
      invoice_id_external3: null,
      payment_method: i.method,
      status: i.status,
      is_pix: isPix,
      is_bank_slip: i.method === "bank_slip",
      is_credit_card: i.method === "credit_card",
      is_anticipated: false,
      anticipation_approved: false,
      is_indication_tax: false,
      postback_url: i.postback_url ?? "",
      qr_code_pix: i.pix_qr_code,
      token_checkout: i.token_checkout,
      retention_tax: 0,
      value_adq: fee.valueAdq,
      value_platform: fee.valuePlatform,
      value_indication: fee.valueIndication,
      value_seller: fee.valueSeller,
      value_total: fee.valueTotal,
      created_at: i.created_at,
      updated_at: i.updated_at
    }
  }
}

const searchedClient = (row) => ({
  id: row.client_id,
  name: row.client_name,
  email: row.client_email,
  phone: row.client_phone,
  document_type: row.client_document_type,
  document_number: row.client_document_number,
  created_at: row.client_created_at,
  updated_at: row.client_updated_at
})

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
  const steps = numericIdPattern.test(id) ? SEARCH_BY_ID_STEPS : uuidPattern.test(id) ? SEARCH_BY_SECURE_ID_STEPS : []
  if (steps.length === 0) return [404, { code: "not_found", message: "no invoice with that id" }]
  const ctx = contextFor(key, id)
  for (const step of steps) {
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
  const company = await firstRow(pool, CREATE_COMPANY_STEP.sql, CREATE_COMPANY_STEP.params(ctx))
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
    for (const step of CREATE_STEPS) ctx.rows[step.name] = await firstRow(connection, step.sql, step.params(ctx))
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
