// Every SQL statement the baseline (bench/baseline.mjs) sends, in order, per endpoint. The texts are not written
// here: they are read from the built persistence package's `@fatura/persistence/statements` entry
// (packages/persistence/src/Statements.ts), the very strings the service's repositories run, so the baseline cannot
// drift from the service's SQL. What this file says is how each step fills its statement's parameters ($1, $2, …), and
// `stepsOf` refuses to make the steps (so the baseline, and `pnpm bench`, refuse to start) when a statement is
// missing, when a step does not fill its statement's parameters one for one, or when the invoice insert names columns
// the baseline does not fill.
//
// The `ctx` that parameter functions receive (built in baseline.mjs):
//   ctx.companyId, ctx.mode           the authenticated key's company and mode ("test" | "live")
//   ctx.id                            the searched id: a secureId (uuid) or a numeric id, as text
//   ctx.now                           the request's timestamp (ISO 8601)
//   ctx.body                          the validated create request (see bench/support/baseline-request.mjs)
//   ctx.invoice                       the invoice being created (secureId, amount, fee, pix, tokenCheckout, …)
//   ctx.rows.<step name>              the first row each earlier step returned
//   ctx.response()                    the JSON response, built from what is known so far (the event stores it)
import { createRequire } from "node:module"
import { fileURLToPath, pathToFileURL } from "node:url"

/** How long a key lookup stays in the baseline's memory, as in the service (`KeyCacheTtl`, 3 s; 0 = none). */
export const KEY_CACHE_MS = 3000

// Create Invoices — SqlTransactions: the transaction around the create steps (ROLLBACK only when a step fails).
export const BEGIN = "BEGIN"
export const COMMIT = "COMMIT"
export const ROLLBACK = "ROLLBACK"

const persistenceManifest = fileURLToPath(new URL("../packages/persistence/package.json", import.meta.url))

/** The statements module of the built persistence package, resolved through its package.json `exports`. */
export const loadStatements = async () => {
  let path
  try {
    path = createRequire(persistenceManifest).resolve("@fatura/persistence/statements")
  } catch (error) {
    throw new Error(
      `bench: cannot resolve @fatura/persistence/statements (${error.message}); build it: tsc --build packages/persistence`
    )
  }
  return import(pathToFileURL(path).href)
}

/** The invoice's columns as the baseline inserts a pending pix invoice, by column name. */
const invoiceValues = (ctx) => {
  const invoice = ctx.invoice
  return {
    secure_id: invoice.secureId,
    company_id: ctx.companyId,
    client_id: ctx.rows.client.id,
    mode: ctx.mode,
    method: "pix",
    status: "pending",
    amount: invoice.amount,
    installments: 1,
    refunded_amount: 0,
    refused_reason: null,
    postback_url: null,
    traceable: false,
    ip: null,
    metadata: null,
    external_ref: null,
    items: JSON.stringify(invoice.items),
    payer: JSON.stringify(invoice.payer),
    token_checkout: invoice.tokenCheckout,
    fee: JSON.stringify(invoice.fee),
    pix_qr_code: invoice.pix.qrCode,
    pix_txid: invoice.pix.txid,
    pix_expires_at: invoice.pix.expiresAt,
    boleto_barcode: null,
    boleto_digitable_line: null,
    boleto_due_date: null,
    boleto_url: null,
    boleto_bank_code: null,
    boleto_our_number: null,
    card: null,
    card_reference_id: null,
    created_at: ctx.now,
    updated_at: ctx.now,
    paid_at: null
  }
}

/** A context with every field a step reads, to check the steps against their statements before any request. */
const sampleContext = {
  companyId: 1,
  mode: "test",
  id: "1",
  now: "2026-01-01T00:00:00.000Z",
  body: { payer: { documentType: "cpf", document: "52998224725", name: "Maria", email: "maria@example.com" } },
  invoice: {
    secureId: "00000000-0000-4000-8000-000000000000",
    eventId: "evt_sample",
    amount: 100,
    items: [],
    payer: {},
    tokenCheckout: "token",
    fee: {},
    pix: { qrCode: "qr", txid: "txid", expiresAt: "2026-01-02T00:00:00.000Z" }
  },
  rows: { client: { id: 1 }, invoice: { id: 1 } },
  response: () => ({})
}

/** The highest `$n` a statement names: how many parameters it takes. */
const parameterCount = (sql) => Math.max(0, ...Array.from(sql.matchAll(/\$(\d+)/g), (match) => Number(match[1])))

const needed = [
  "keyByHash",
  "companyWithTotals",
  "invoiceWithCompanyById",
  "invoiceWithCompanyBySecureId",
  "upsertClient",
  "insertedInvoiceColumns",
  "insertInvoice",
  "insertEvent"
]

/**
 * The baseline's steps (a step is a statement plus how to fill its parameters) over the persistence package's
 * statements; throws when they do not fit (see the top of this file).
 */
export const stepsOf = (statements) => {
  const missing = needed.filter((name) => statements[name] === undefined)
  if (missing.length > 0) {
    throw new Error(`bench: @fatura/persistence/statements lacks ${missing.join(", ")}, which the baseline sends`)
  }
  const columns = statements.insertedInvoiceColumns
  const filled = Object.keys(invoiceValues(sampleContext))
  const unfilled = columns.filter((column) => !filled.includes(column))
  const unknown = filled.filter((column) => !columns.includes(column))
  if (unfilled.length > 0 || unknown.length > 0) {
    throw new Error(
      `bench: the invoice insert's columns changed: the baseline does not fill ${unfilled.join(", ") || "—"} ` +
        `and fills ${unknown.join(", ") || "—"} that it does not insert`
    )
  }
  const steps = {
    // Authentication (both endpoints) — CompanyRepository.findKeyByHash: the sha256 of the bearer key to its key row
    // and company. The baseline runs it only on a key-cache miss (see KEY_CACHE_MS).
    keyLookup: { name: "key", sql: statements.keyByHash, params: (ctx) => [ctx.hash] },
    // Search Transaction — InvoiceRepository.findWithCompany: in one statement the invoice with its client, card
    // reference, timeline, ledger movements and refunds, its company (columns prefixed `co_`), and the company's
    // running balances and paid totals, scoped to the key's company and mode.
    searchById: [
      {
        name: "invoice",
        sql: statements.invoiceWithCompanyById,
        params: (ctx) => [ctx.now, ctx.id, ctx.companyId, ctx.mode]
      }
    ],
    searchBySecureId: [
      {
        name: "invoice",
        sql: statements.invoiceWithCompanyBySecureId,
        params: (ctx) => [ctx.now, ctx.id, ctx.companyId, ctx.mode]
      }
    ],
    // Create Invoices (pix) — CompanyRepository.findWithTotals: the company as it is now and its totals, read before
    // the transaction.
    createCompany: {
      name: "company",
      sql: statements.companyWithTotals,
      params: (ctx) => [ctx.now, ctx.companyId, ctx.mode]
    },
    // Create Invoices (pix), between BEGIN and COMMIT on one connection, in order: the payer as the company's client
    // (ClientRepository.upsertClient), the invoice with its `invoice.created` timeline entry
    // (InvoiceRepository.insert) and its event with its deliveries (EventOutbox.recordEvent).
    create: [
      {
        name: "client",
        sql: statements.upsertClient,
        params: (ctx) => {
          const payer = ctx.body.payer
          return [ctx.companyId, ctx.mode, payer.documentType, payer.document, payer.name, payer.email, null, ctx.now]
        }
      },
      {
        name: "invoice",
        sql: statements.insertInvoice(1),
        params: (ctx) => {
          const values = invoiceValues(ctx)
          return [...columns.map((column) => values[column]), "pending", "invoice.created"]
        }
      },
      {
        name: "event",
        sql: statements.insertEvent,
        params: (ctx) => [
          ctx.invoice.eventId,
          ctx.companyId,
          ctx.rows.invoice.id,
          "invoice.created",
          ctx.mode === "live",
          JSON.stringify(ctx.response()),
          ctx.now,
          null,
          // No postback URL; the patterns that match the type, as WebhookEndpoint.patternsMatching gives them.
          null,
          "*",
          "invoice.*",
          "invoice.created"
        ]
      }
    ]
  }
  const all = [steps.keyLookup, ...steps.searchById, ...steps.searchBySecureId, steps.createCompany, ...steps.create]
  for (const step of all) {
    const expected = parameterCount(step.sql)
    const given = step.params({ ...sampleContext, hash: "0" }).length
    if (given !== expected) {
      throw new Error(
        `bench: the baseline's ${step.name} step fills ${given} parameters, its statement takes ${expected}`
      )
    }
  }
  return steps
}
