// Two companies on one server, each with one object of every kind the contract can name: invoices in the states
// the routes act on, an event, a postback delivery, a webhook endpoint, a ledger entry, a public token and a card
// token. What a company owns can be
// snapshotted, to prove that another company's requests changed nothing of it.
import { expect } from "vitest"
import { type Connection, connect, createDatabase } from "./Cluster.js"
import { boletoPayer, cardField, payer, testCards } from "./Journal.js"
import { createCompany, fatura, type Service, serve } from "./Service.js"

export interface InvoiceRef {
  readonly id: number
  readonly secureId: string
  readonly token: string
}

export interface Tenant {
  readonly companyId: number
  readonly name: string
  readonly testKey: string
  readonly liveKey: string
  readonly publicToken: string
  readonly cardToken: string
  /** pending pix, with a postback URL (so it has deliveries) */
  readonly pix: InvoiceRef
  readonly boleto: InvoiceRef
  /** pending credit card, paid by the payer through the public route */
  readonly cardPending: InvoiceRef
  /** paid credit card: refundable, chargeback-able */
  readonly cardPaid: InvoiceRef
  readonly eventId: string
  readonly deliveryId: number
  readonly endpointId: string
  /** A ledger entry of the paid card invoice, as the statement lists it. */
  readonly operationId: number
  readonly receivableId: number
  /** A withdrawal canceled as soon as it was asked for, so that nothing more happens to it. */
  readonly withdrawalId: string
}

export interface World {
  readonly service: Service
  readonly database: Connection
  readonly a: Tenant
  readonly b: Tenant
  /** Every row the company owns, in every table, in a stable order. */
  readonly snapshot: (companyId: number) => Promise<string>
}

const tenant = async (service: Service, databaseUrl: string, name: string): Promise<Tenant> => {
  const company = await createCompany(databaseUrl, name)
  const key = company.testKey
  const create = async (body: Record<string, unknown>) => {
    const reply = await service.request("POST", "/api/v2/invoices", { key, body })
    expect(reply.status, reply.text).toBe(201)
    return { id: reply.body.id, secureId: reply.body.secureId, token: reply.body.invoice.token_checkout }
  }
  const pix = await create({
    method: "pix",
    total_price_cents: 2_500,
    payer,
    postback_url: "http://127.0.0.1:9/postbacks"
  })
  const boleto = await create({ method: "bank_slip", total_price_cents: 12_345, payer: boletoPayer })
  const cardPending = await create({ method: "credit_card", total_price_cents: 8_000, payer })
  const cardPaid = await create({
    method: "credit_card",
    total_price_cents: 9_000,
    payer,
    card: cardField(testCards.approvedMastercard)
  })
  const events = await service.request("GET", `/api/v2/events?invoice_id=${pix.secureId}`, { key })
  const deliveries = await service.request("GET", `/api/v2/webhooks/deliveries?invoice_id=${pix.secureId}`, { key })
  const endpoint = await service.request("POST", "/api/v2/webhooks/endpoints", {
    key,
    body: { url: "http://127.0.0.1:9/hooks", events: ["invoice.paid"] }
  })
  expect(endpoint.status, endpoint.text).toBe(201)
  const operations = await service.request("GET", "/api/v2/balance/operations", { key })
  expect(operations.body.data.length, operations.text).toBeGreaterThan(0)
  const receivables = await service.request("GET", "/api/v2/receivables", { key })
  expect(receivables.body.data.length, receivables.text).toBeGreaterThan(0)
  // A pix sale to withdraw from, and a withdrawal canceled at once: on Postgres no sweep runs beside this server (that
  // is fatura-worker's job), and a canceled withdrawal is final, so that nothing more happens to it.
  await fatura(
    databaseUrl,
    "company",
    "bank-account",
    String(company.id),
    "--bank-code",
    "341",
    "--agency",
    "0001",
    "--account",
    "12345678",
    "--digit",
    "9",
    "--type",
    "corrente"
  )
  const sale = await create({ method: "pix", total_price_cents: 10_000, payer })
  await service.request("POST", "/api/v2/sandbox/invoices/pay", { key, body: { id: sale.secureId } })
  const withdrawal = await service.request("POST", "/api/v2/withdrawals", { key, body: { amount: 1_000 } })
  expect(withdrawal.status, withdrawal.text).toBe(201)
  const canceled = await service.request("POST", `/api/v2/withdrawals/${withdrawal.body.id}/cancel`, { key })
  expect([canceled.status, canceled.body.status], canceled.text).toEqual([200, "canceled"])
  // Last: exchange-token turns 3-D Secure on for the company.
  const exchanged = await service.request("POST", "/api/v2/exchange-token", { key })
  const tokenized = await service.request("POST", "/api/v2/public/cards", {
    key: exchanged.body.public_token,
    body: (({ number, first_name, last_name, month, year, security_code }) => ({
      number,
      first_name,
      last_name,
      month,
      year,
      security_code
    }))(cardField(testCards.approved))
  })
  expect(tokenized.status, tokenized.text).toBe(201)
  return {
    companyId: company.id,
    name,
    testKey: key,
    liveKey: company.liveKey,
    publicToken: exchanged.body.public_token,
    cardToken: tokenized.body.token,
    pix,
    boleto,
    cardPending,
    cardPaid,
    eventId: events.body.data[0].id,
    deliveryId: deliveries.body.data[0].id,
    endpointId: endpoint.body.id,
    operationId: operations.body.data[0].id,
    receivableId: receivables.body.data[0].id,
    withdrawalId: withdrawal.body.id
  }
}

export const makeWorld = async (purpose: string, settings: Record<string, string> = {}): Promise<World> => {
  const { url } = await createDatabase(purpose)
  const service = await serve(purpose, url, { FATURA_RATE_LIMIT: "1000000", ...settings })
  const database = connect(url)
  const a = await tenant(service, url, "Padaria Alfa Ltda")
  const b = await tenant(service, url, "Mercado Beta Ltda")
  const tables = await database.query(
    `SELECT table_name,
            bool_or(column_name = 'company_id') AS by_company,
            bool_or(column_name = 'invoice_id') AS by_invoice,
            bool_or(column_name = 'delivery_id') AS by_delivery
     FROM information_schema.columns WHERE table_schema = 'public'
     GROUP BY table_name ORDER BY table_name`
  )
  const filterOf = (table: Record<string, unknown>) =>
    table.table_name === "companies"
      ? "id = $1"
      : table.by_company
        ? "company_id = $1"
        : table.by_invoice
          ? "invoice_id IN (SELECT id FROM invoices WHERE company_id = $1)"
          : table.by_delivery
            ? "delivery_id IN (SELECT id FROM deliveries WHERE company_id = $1)"
            : undefined
  const snapshot = async (companyId: number) => {
    const parts: Array<string> = []
    for (const table of tables) {
      const filter = filterOf(table)
      if (filter === undefined) continue
      const rows = await database.query(
        `SELECT to_jsonb(t)::text AS row FROM ${table.table_name} t WHERE ${filter} ORDER BY 1`,
        [companyId]
      )
      parts.push(`${table.table_name}: ${rows.map((row) => row.row).join("\n")}`)
    }
    return parts.join("\n")
  }
  return { service, database, a, b, snapshot }
}
