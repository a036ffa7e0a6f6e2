// A merchant that knows Fatura only by its OpenAPI document: a client generated with openapi-typescript, called with
// openapi-fetch, handling the answers every merchant meets — 400 for invalid input, 409 for an Idempotency-Key reused
// with another body, 429 past its allowance — through the document's own types. FATURA_URL and FATURA_KEY configure it.
import createClient from "openapi-fetch"
import type { paths } from "./fatura-api.js"

type Create = paths["/api/v2/invoices"]["post"]["responses"]
type Search = paths["/api/v2/invoices"]["get"]["responses"]

const key = process.env.FATURA_KEY
if (key === undefined) throw new Error("FATURA_KEY is required")
const fatura = createClient<paths>({
  baseUrl: process.env.FATURA_URL ?? "http://localhost:3000",
  headers: { Authorization: `Bearer ${key}` }
})

const unexpected = (what: string, reply: { response: Response; data?: unknown; error?: unknown }) =>
  new Error(`${what}: ${reply.response.status} ${JSON.stringify(reply.error ?? reply.data)}`)

const payer = { name: "Maria Souza", cpf_cnpj: "529.982.247-25", email: "maria@example.com" }

// 400: the body breaks the contract; every problem comes back at once, each with the field it is about.
const invalid = await fatura.POST("/api/v2/invoices", {
  body: { method: "pix", total_price_cents: 4_990, payer: { ...payer, cpf_cnpj: "111.111.111-11", email: "maria" } }
})
// `invalid_request` is also the code of a request whose headers are too large (431); only a 400 lists `issues`.
if (invalid.response.status !== 400 || invalid.error?.code !== "invalid_request" || !("issues" in invalid.error)) {
  throw unexpected("400", invalid)
}
const badRequest: Create[400]["content"]["application/json"] = invalid.error
console.log(`400 ${badRequest.code}: ${badRequest.issues.map((issue) => issue.path).join(", ")}`)

// 409: one Idempotency-Key, two different bodies; the second is refused rather than run or answered with the first.
const idempotencyKey = `order-${Date.now()}`
const created = await fatura.POST("/api/v2/invoices", {
  params: { header: { "Idempotency-Key": idempotencyKey } },
  body: { method: "pix", total_price_cents: 4_990, payer }
})
if (created.data === undefined) throw unexpected("201", created)
const reused = await fatura.POST("/api/v2/invoices", {
  params: { header: { "Idempotency-Key": idempotencyKey } },
  body: { method: "pix", total_price_cents: 5_990, payer }
})
if (reused.response.status !== 409 || reused.error?.code !== "idempotency_conflict") throw unexpected("409", reused)
const conflict: Create[409]["content"]["application/json"] = reused.error
console.log(`409 ${conflict.code}: ${conflict.message}`)

// 429: requests beyond the key's allowance are turned away, with how long to wait.
const secureId = created.data.secureId
let tooMany: { body: Search[429]["content"]["application/json"]; retryAfter: string | null } | undefined
let sent = 0
while (tooMany === undefined && sent < 2_000) {
  const replies = await Promise.all(
    Array.from({ length: 20 }, () => fatura.GET("/api/v2/invoices", { params: { query: { id: secureId } } }))
  )
  sent += replies.length
  for (const reply of replies) {
    if (reply.response.status === 200) continue
    if (reply.response.status !== 429 || reply.error?.code !== "rate_limited") throw unexpected("429", reply)
    tooMany = { body: reply.error, retryAfter: reply.response.headers.get("retry-after") }
  }
}
if (tooMany === undefined) throw new Error(`no 429 in ${sent} requests`)
console.log(`429 ${tooMany.body.code} within ${sent} requests: retry after ${tooMany.retryAfter} s`)
