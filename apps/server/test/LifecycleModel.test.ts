// SPEC 4.4, 4.9, 5.1, 5.3, 7.1, 7.3, 7.4: a model-based test of the invoice lifecycle. Random sequences of
// creates, sandbox pays, refunds, expiries and chargebacks run against one fresh company per run, next to a
// simple model of each invoice; after every step the answer must be the one the model predicts, every balance
// must equal its ledger entries and the model, and the touched invoice must be consistent with itself.
import { InvoiceTransaction } from "@fatura/domain"
import { Exit, Schema } from "effect"
import * as fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { propertyRuns, runsFactor } from "../../../scripts/property-tests/settings.mjs"
import { boletoPayer, cardRequest, pixRequest, type Reply, startApp, type TestApp } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

type Method = "pix" | "bank_slip" | "credit_card"
type BalanceKind = "pix" | "card" | "bank_slip"
type Status = "pending" | "paid" | "partially_refunded" | "refunded" | "expired" | "refused" | "chargedback"
type Variant = "pix" | "bank_slip" | "card_approved" | "card_refused" | "card_checkout"

type RefundAmount =
  | { readonly type: "rest" }
  | { readonly type: "exact_rest" }
  | { readonly type: "over"; readonly extra: number }
  | { readonly type: "fraction"; readonly fraction: number }

/**
 * Which invoice of the run an action touches: the `index`-th (modulo their number) of all of them, or, when
 * `fitting`, of those whose status the action can move (if there is none, of all); null, an id that is nobody's.
 */
type Target = { readonly index: number; readonly fitting: boolean } | null

type Action =
  | { readonly kind: "create"; readonly variant: Variant; readonly amount: number; readonly installments: number }
  | { readonly kind: "pay"; readonly target: Target }
  | { readonly kind: "refund"; readonly target: Target; readonly amount: RefundAmount; readonly reason: boolean }
  | { readonly kind: "expire"; readonly target: Target }
  | { readonly kind: "chargeback"; readonly target: Target }

interface ModelInvoice {
  readonly secureId: string
  readonly method: Method
  readonly amount: number
  readonly fee: number
  status: Status
  refunded: number
  refunds: number
  /** What the invoice's own ledger entries add up to (credits minus debits). */
  net: number
  readonly timeline: Array<Status>
}

interface Model {
  readonly invoices: Array<ModelInvoice>
  readonly balances: Record<BalanceKind, number>
  /** Σ amount of the invoices ever paid (SPEC 5.3 `amount_invoice_total`). */
  paidTotal: number
}

/** The allowed moves of SPEC 7.1, as timeline steps; a further partial refund is a move too. */
const allowedSteps = new Set([
  "pending>paid",
  "pending>expired",
  "pending>refused",
  "paid>partially_refunded",
  "paid>refunded",
  "paid>chargedback",
  "partially_refunded>partially_refunded",
  "partially_refunded>refunded",
  "partially_refunded>chargedback"
])

const balanceKindOf = (method: Method): BalanceKind => (method === "credit_card" ? "card" : method)
const methodOf = (variant: Variant): Method =>
  variant === "pix" ? "pix" : variant === "bank_slip" ? "bank_slip" : "credit_card"

/** SPEC 7.2–7.3 with the default plan: round half up of a percentage in hundredths, plus the fixed part, capped. */
const feeOf = (method: Method, installments: number, amount: number) => {
  const [basisPoints, fixed] =
    method === "pix"
      ? [199, 0]
      : method === "bank_slip"
        ? [0, 349]
        : [installments === 1 ? 399 : installments <= 6 ? 499 : 599, 39]
  return Math.min(Math.floor((amount * basisPoints + 5_000) / 10_000) + fixed, amount)
}

const createBody = (action: Extract<Action, { kind: "create" }>) => {
  const total = { total_price_cents: action.amount }
  switch (action.variant) {
    case "pix":
      return pixRequest(total)
    case "bank_slip":
      return pixRequest({ method: "bank_slip", payer: boletoPayer, ...total })
    case "card_approved":
      return cardRequest({ installment: action.installments }, total)
    case "card_refused":
      return cardRequest({ number: "4000000000000002", installment: action.installments }, total)
    case "card_checkout":
      return pixRequest({ method: "credit_card", ...total })
  }
}

const target: fc.Arbitrary<Target> = fc.oneof(
  { weight: 30, arbitrary: fc.record({ index: fc.nat({ max: 1_000 }), fitting: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant(null) }
)

const createArbitrary: fc.Arbitrary<Action> = fc.record({
  kind: fc.constant("create" as const),
  variant: fc.constantFrom<Variant>("pix", "bank_slip", "card_approved", "card_refused", "card_checkout"),
  // Small amounts too: a boleto of R$ 3,49 or less is all fee, and its balance cannot cover its refund.
  amount: fc.oneof(fc.integer({ min: 100, max: 1_500 }), fc.integer({ min: 100, max: 50_000 })),
  installments: fc.oneof(
    { weight: 3, arbitrary: fc.constant(1) },
    { weight: 1, arbitrary: fc.integer({ min: 2, max: 12 }) }
  )
})

const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  { weight: 3, arbitrary: createArbitrary },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("pay" as const), target }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("refund" as const),
      target,
      amount: fc.oneof(
        fc.constant<RefundAmount>({ type: "rest" }),
        fc.constant<RefundAmount>({ type: "exact_rest" }),
        fc.record({ type: fc.constant("over" as const), extra: fc.integer({ min: 1, max: 500 }) }),
        fc.record({
          type: fc.constant("fraction" as const),
          fraction: fc.double({ min: 0, max: 1.1, noNaN: true, noDefaultInfinity: true })
        })
      ),
      reason: fc.boolean()
    })
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("expire" as const), target }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("chargeback" as const), target }) }
)

const refundable = (status: Status) => status === "paid" || status === "partially_refunded"

/** Whether the model lets `kind` move this invoice (SPEC 7.1, 4.9). */
const canMove = (kind: Exclude<Action["kind"], "create">, invoice: ModelInvoice) => {
  switch (kind) {
    case "pay":
      return invoice.status === "pending" && invoice.method !== "credit_card"
    case "refund":
      return refundable(invoice.status)
    case "expire":
      return invoice.status === "pending"
    case "chargeback":
      return invoice.method === "credit_card" && refundable(invoice.status)
  }
}

const pick = (model: Model, action: Exclude<Action, { kind: "create" }>): ModelInvoice | undefined => {
  if (action.target === null) return undefined
  const fitting = action.target.fitting ? model.invoices.filter((invoice) => canMove(action.kind, invoice)) : []
  const among = fitting.length > 0 ? fitting : model.invoices
  return among.length === 0 ? undefined : among[action.target.index % among.length]
}

type Prediction =
  | { readonly status: 200 | 201; readonly apply: () => ModelInvoice }
  | { readonly status: 404 | 409 | 422; readonly code: string }

const unknownId = "00000000-0000-4000-8000-000000000000"

// A passing property takes a few seconds (ten times that under `pnpm test:fuzz`); the margin is for shrinking a
// counterexample.
vi.setConfig({ testTimeout: 120_000 * runsFactor })

describe.each(testDatabases)("invoice lifecycle against a model on $name", (database) => {
  let app: TestApp

  beforeAll(async () => {
    app = await startApp(database)
  })
  afterAll(() => app.stop())

  it("every random sequence of create, pay, refund, expire and chargeback keeps the model's answers, balances and invoices", async () => {
    const runSequence = async (actions: ReadonlyArray<Action>) => {
      const registered = await app.registerCompany({ name: "Loja Modelo Ltda" })
      const key = registered.secretKey
      const companyId = Number(registered.company.id)
      const model: Model = { invoices: [], balances: { pix: 0, card: 0, bank_slip: 0 }, paidTotal: 0 }
      const post = (path: string, body: unknown) => app.request("POST", path, { key, body })

      for (const [step, action] of actions.entries()) {
        const context = `step ${step} ${JSON.stringify(action)}`
        let reply: Reply
        let prediction: Prediction
        let touched: ModelInvoice | undefined

        if (action.kind === "create") {
          const method = methodOf(action.variant)
          const withCard = action.variant === "card_approved" || action.variant === "card_refused"
          const installments = withCard ? action.installments : 1
          reply = await post("/api/v2/invoices", createBody(action))
          // SPEC 6.3: each installment ≥ 500 cents; a single payment is not split, so any amount from R$ 1,00 goes
          // (SPEC 4.1, and the service's documented reading in Card.checkInstallments).
          if (withCard && installments > 1 && action.amount < 500 * installments) {
            prediction = { status: 422, code: "installment_too_small" }
          } else {
            prediction = {
              status: 201,
              apply: () => {
                const fee = feeOf(method, installments, action.amount)
                const invoice: ModelInvoice = {
                  secureId: reply.body.secureId,
                  method,
                  amount: action.amount,
                  fee,
                  status: "pending",
                  refunded: 0,
                  refunds: 0,
                  net: 0,
                  timeline: ["pending"]
                }
                if (action.variant === "card_approved") {
                  invoice.status = "paid"
                  invoice.timeline.push("paid")
                  invoice.net = action.amount - fee
                  model.balances.card += action.amount - fee
                  model.paidTotal += action.amount
                } else if (action.variant === "card_refused") {
                  invoice.status = "refused"
                  invoice.timeline.push("refused")
                }
                model.invoices.push(invoice)
                return invoice
              }
            }
          }
        } else {
          const invoice = pick(model, action)
          const id = invoice?.secureId ?? unknownId
          touched = invoice
          const invalidState = { status: 409, code: "invalid_state" } as const
          switch (action.kind) {
            case "pay": {
              reply = await post("/api/v2/sandbox/invoices/pay", { id })
              prediction =
                invoice === undefined
                  ? { status: 404, code: "not_found" }
                  : canMove("pay", invoice)
                    ? {
                        status: 200,
                        apply: () => {
                          invoice.status = "paid"
                          invoice.timeline.push("paid")
                          invoice.net = invoice.amount - invoice.fee
                          model.balances[balanceKindOf(invoice.method)] += invoice.amount - invoice.fee
                          model.paidTotal += invoice.amount
                          return invoice
                        }
                      }
                    : invalidState
              break
            }
            case "refund": {
              const remaining = invoice === undefined ? 0 : invoice.amount - invoice.refunded
              const requested =
                action.amount.type === "rest"
                  ? undefined
                  : action.amount.type === "exact_rest"
                    ? Math.max(1, remaining)
                    : action.amount.type === "over"
                      ? remaining + action.amount.extra
                      : Math.max(1, Math.round(remaining * action.amount.fraction))
              reply = await post("/api/v2/invoices/refund", {
                id,
                ...(requested === undefined ? {} : { amount: requested }),
                ...(action.reason ? { reason: `modelo ${step}` } : {})
              })
              const amount = requested ?? remaining
              if (invoice === undefined) {
                prediction = { status: 404, code: "not_found" }
              } else if (!canMove("refund", invoice)) {
                prediction = invalidState
              } else if (amount > remaining) {
                prediction = { status: 422, code: "refund_exceeds_remaining" }
              } else if (model.balances[balanceKindOf(invoice.method)] < amount) {
                prediction = { status: 422, code: "insufficient_balance" }
              } else {
                prediction = {
                  status: 201,
                  apply: () => {
                    invoice.refunded += amount
                    invoice.refunds += 1
                    invoice.net -= amount
                    invoice.status = invoice.refunded === invoice.amount ? "refunded" : "partially_refunded"
                    invoice.timeline.push(invoice.status)
                    model.balances[balanceKindOf(invoice.method)] -= amount
                    return invoice
                  }
                }
              }
              break
            }
            case "expire": {
              reply = await post("/api/v2/sandbox/invoices/expire", { id })
              prediction =
                invoice === undefined
                  ? { status: 404, code: "not_found" }
                  : canMove("expire", invoice)
                    ? {
                        status: 200,
                        apply: () => {
                          invoice.status = "expired"
                          invoice.timeline.push("expired")
                          return invoice
                        }
                      }
                    : invalidState
              break
            }
            case "chargeback": {
              reply = await post("/api/v2/sandbox/invoices/chargeback", { id })
              prediction =
                invoice === undefined
                  ? { status: 404, code: "not_found" }
                  : canMove("chargeback", invoice)
                    ? {
                        status: 200,
                        apply: () => {
                          const notRefunded = invoice.amount - invoice.refunded
                          invoice.status = "chargedback"
                          invoice.timeline.push("chargedback")
                          invoice.net -= notRefunded
                          model.balances.card -= notRefunded
                          return invoice
                        }
                      }
                    : invalidState
              break
            }
          }
        }

        // The answer is the one the model predicts.
        expect(
          { status: reply.status, code: reply.status >= 400 ? reply.body?.code : undefined },
          `${context}: ${JSON.stringify(reply.body).slice(0, 400)}`
        ).toEqual({ status: prediction.status, code: "code" in prediction ? prediction.code : undefined })
        if (reply.status < 300) expectContractShape(reply.body, context)
        if ("apply" in prediction) {
          touched = prediction.apply()
          expect(reply.body.status, context).toBe(touched.status)
          expect(reply.body.refundedAmount, context).toBe(touched.refunded)
        }

        // Every balance equals the model and the sum of its ledger entries.
        const company = await app.request("GET", "/api/v2/company", { key })
        expect(company.status, context).toBe(200)
        const balances = {
          pix: company.body.balance_pix,
          card: company.body.balance_card,
          bank_slip: company.body.balance_bank_slip
        }
        expect(balances, context).toEqual(model.balances)
        expect(company.body.amount_invoice_total, context).toBe(model.paidTotal)
        const ledger = await app.query(
          `SELECT balance, sum(CASE WHEN direction = 'credit' THEN amount ELSE -amount END)::int AS total
           FROM ledger_entries WHERE company_id = ${companyId} GROUP BY balance`
        )
        const ledgerBalances: Record<BalanceKind, number> = { pix: 0, card: 0, bank_slip: 0 }
        for (const row of ledger) ledgerBalances[row.balance as BalanceKind] = Number(row.total)
        expect(ledgerBalances, context).toEqual(balances)

        if (touched !== undefined) await checkInvoice(key, touched, context)
      }

      // At the end, every invoice of the run still agrees with the model.
      for (const invoice of model.invoices) await checkInvoice(key, invoice, "end of run")
    }

    await fc.assert(
      // A few invoices first, then up to 30 steps in all, their number spread over the whole range.
      fc.asyncProperty(
        fc
          .tuple(
            fc.array(createArbitrary, { minLength: 1, maxLength: 4 }),
            fc.array(actionArbitrary, { minLength: 1, maxLength: 26, size: "max" })
          )
          .map(([creates, actions]) => [...creates, ...actions]),
        runSequence
      ),
      { numRuns: propertyRuns(20) }
    )
  })

  /**
   * Exactly the Invoice transaction of the contract (SPEC 5.1): every field of its type, and nothing else. The service
   * writes these responses without encoding them through the schema again, so this is what holds them to it.
   */
  const expectContractShape = (body: unknown, context: string) => {
    const decoded = Schema.decodeUnknownExit(InvoiceTransaction.InvoiceTransaction, { onExcessProperty: "error" })(body)
    expect(Exit.isSuccess(decoded) ? "matches" : String(decoded.cause), context).toBe("matches")
  }

  /** The invoice as the API shows it agrees with the model and with itself. */
  const checkInvoice = async (key: string, model: ModelInvoice, context: string) => {
    const reply = await app.request("GET", `/api/v2/invoices?id=${model.secureId}`, { key })
    expect(reply.status, context).toBe(200)
    expectContractShape(reply.body, context)
    const invoice = reply.body
    const where = `${context} / invoice ${model.secureId} (${model.method})`

    expect({ status: invoice.status, amount: invoice.amount, refundedAmount: invoice.refundedAmount }, where).toEqual({
      status: model.status,
      amount: model.amount,
      refundedAmount: model.refunded
    })
    expect(invoice.refundedAmount, where).toBeLessThanOrEqual(invoice.amount)
    expect(invoice.refunds, where).toHaveLength(model.refunds)
    expect(
      invoice.refunds.reduce((sum: number, refund: { amount: number }) => sum + refund.amount, 0),
      where
    ).toBe(invoice.refundedAmount)

    const statuses: Array<string> = invoice.timeline.map((entry: { status: string }) => entry.status)
    expect(statuses, where).toEqual(model.timeline)
    expect(statuses.at(-1), where).toBe(invoice.status)
    expect(statuses[0], where).toBe("pending")
    for (let i = 1; i < statuses.length; i++) {
      expect(allowedSteps.has(`${statuses[i - 1]}>${statuses[i]}`), `${where}: ${statuses.join(" > ")}`).toBe(true)
    }

    const detail = invoice.invoice
    expect(detail.value_seller + detail.value_platform + detail.value_adq + detail.value_indication, where).toBe(
      detail.value_total
    )
    expect(detail.value_total, where).toBe(invoice.amount)
    expect(invoice.fee.estimatedFee, where).toBe(model.fee)

    const net = invoice.financial_movements.reduce(
      (sum: number, entry: { direction: string; amount: number }) =>
        sum + (entry.direction === "credit" ? entry.amount : -entry.amount),
      0
    )
    expect(net, where).toBe(model.net)
  }
})
