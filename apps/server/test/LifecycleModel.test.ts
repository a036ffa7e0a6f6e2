// SPEC 4.4, 4.9, 5.1, 5.3, 7.1, 7.3, 7.4, 13.1: a model-based test of the invoice lifecycle. Random sequences of
// creates, sandbox pays, refunds, expiries, chargebacks and releases of receivables run against one fresh company per
// run, next to a simple model of each invoice and of where its money is (available, or waiting for its receivables);
// after every step the answer must be the one the model predicts, every bucket of every balance must equal its ledger
// entries and the model, and the touched invoice must be consistent with itself and with its receivables.
import { InvoiceTransaction } from "@fatura/domain"
import { Exit, Schema } from "effect"
import * as fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { propertyRuns, runsFactor } from "../../../scripts/property-tests/settings.mjs"
import {
  type Action,
  actionArbitrary,
  allowedSteps,
  type BalanceKind,
  balanceKindOf,
  canMove,
  createArbitrary,
  createBody,
  feeOf,
  type Model,
  type ModelInvoice,
  methodOf,
  type Prediction,
  pay,
  pick,
  release,
  takeBack,
  unknownId,
  waitingOf
} from "./support/LifecycleModel.js"
import { type Bucket, bucketsOf } from "./support/Receivables.js"
import { type Reply, startApp, type TestApp } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

// A passing property takes a few seconds (ten times that under `pnpm test:fuzz`); the margin is for shrinking a
// counterexample.
vi.setConfig({ testTimeout: 120_000 * runsFactor })

describe.each(testDatabases)("invoice lifecycle against a model on $name", (database) => {
  let app: TestApp

  beforeAll(async () => {
    app = await startApp(database)
  })
  afterAll(() => app.stop())

  it("every random sequence of create, pay, refund, expire, chargeback and release keeps the model's answers, balances and invoices", async () => {
    const runSequence = async (actions: ReadonlyArray<Action>) => {
      const registered = await app.registerCompany({ name: "Loja Modelo Ltda" })
      const key = registered.secretKey
      const companyId = Number(registered.company.id)
      const model: Model = {
        invoices: [],
        balances: { pix: 0, card: 0, bank_slip: 0 },
        waiting: { pix: 0, card: 0, bank_slip: 0 },
        paidTotal: 0
      }
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
                  waiting: [],
                  timeline: ["pending"]
                }
                if (action.variant === "card_approved") {
                  pay(model, invoice, installments)
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
                          pay(model, invoice, 1)
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
              } else if (waitingOf(invoice) + model.balances[balanceKindOf(invoice.method)] < amount) {
                // SPEC 7.4: what the invoice's receivables wait for and the available balance cover it together, or not.
                const balance = waitingOf(invoice) + model.balances[balanceKindOf(invoice.method)]
                prediction = {
                  status: 422,
                  code: "insufficient_balance",
                  message: `the balance (${balance}) does not cover a refund of ${amount}`
                }
              } else {
                prediction = {
                  status: 201,
                  apply: () => {
                    invoice.refunded += amount
                    invoice.refunds += 1
                    invoice.status = invoice.refunded === invoice.amount ? "refunded" : "partially_refunded"
                    invoice.timeline.push(invoice.status)
                    takeBack(model, invoice, amount)
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
                          invoice.status = "chargedback"
                          invoice.timeline.push("chargedback")
                          takeBack(model, invoice, invoice.amount - invoice.refunded)
                          return invoice
                        }
                      }
                    : invalidState
              break
            }
            case "release": {
              reply = await post("/api/v2/sandbox/receivables/release", { id })
              prediction =
                invoice === undefined
                  ? { status: 404, code: "not_found" }
                  : {
                      status: 200,
                      apply: () => {
                        release(model, invoice)
                        return invoice
                      }
                    }
              break
            }
          }
        }

        // The answer is the one the model predicts.
        expect(
          {
            status: reply.status,
            code: reply.status >= 400 ? reply.body?.code : undefined,
            ...("message" in prediction ? { message: reply.body?.message } : {})
          },
          `${context}: ${JSON.stringify(reply.body).slice(0, 400)}`
        ).toEqual({
          status: prediction.status,
          code: "code" in prediction ? prediction.code : undefined,
          ...("message" in prediction ? { message: prediction.message } : {})
        })
        if (reply.status < 300) expectContractShape(reply.body, context)
        if ("apply" in prediction) {
          touched = prediction.apply()
          expect(reply.body.status, context).toBe(touched.status)
          expect(reply.body.refundedAmount, context).toBe(touched.refunded)
        }

        // Every bucket of every balance equals the model and the sum of its ledger entries.
        const company = await app.request("GET", "/api/v2/company", { key })
        expect(company.status, context).toBe(200)
        const buckets = bucketsOf(company.body)
        expect(buckets, context).toEqual({ available: model.balances, waiting: model.waiting })
        expect(company.body.amount_invoice_total, context).toBe(model.paidTotal)
        const ledger = await app.query(
          `SELECT balance, bucket, sum(CASE WHEN direction = 'credit' THEN amount ELSE -amount END)::int AS total
           FROM ledger_entries WHERE company_id = ${companyId} GROUP BY balance, bucket`
        )
        const ledgerBuckets: Record<Bucket, Record<BalanceKind, number>> = {
          available: { pix: 0, card: 0, bank_slip: 0 },
          waiting: { pix: 0, card: 0, bank_slip: 0 }
        }
        for (const row of ledger) ledgerBuckets[row.bucket as Bucket][row.balance as BalanceKind] = Number(row.total)
        expect(ledgerBuckets, context).toEqual(buckets)

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

    // Its entries add up to its net, what waits in the waiting bucket; its receivables add up to its net too, and
    // those still waiting, installment by installment, to what the model's installments wait for.
    const inBucket = (bucket: Bucket | null) =>
      invoice.financial_movements
        .filter((entry: { bucket: Bucket }) => bucket === null || entry.bucket === bucket)
        .reduce(
          (sum: number, entry: { direction: string; amount: number }) =>
            sum + (entry.direction === "credit" ? entry.amount : -entry.amount),
          0
        )
    expect([inBucket(null), inBucket("waiting")], where).toEqual([model.net, waitingOf(model)])
    const receivables = await app.request("GET", `/api/v2/receivables?invoice_id=${model.secureId}&limit=100`, { key })
    expect([receivables.status, receivables.body.has_more], where).toEqual([200, false])
    const waiting = new Map<number, number>()
    let net = 0
    for (const receivable of receivables.body.data as ReadonlyArray<Record<string, number | string>>) {
      net += Number(receivable.net_amount)
      if (receivable.status !== "waiting_funds") continue
      const installment = Number(receivable.installment)
      waiting.set(installment, (waiting.get(installment) ?? 0) + Number(receivable.net_amount))
    }
    expect(net, where).toBe(model.net)
    const nonZero = (entries: Iterable<[number, number]>) => [...entries].filter(([, amount]) => amount !== 0).sort()
    expect(nonZero(waiting), where).toEqual(nonZero(model.waiting.map((amount, index) => [index + 1, amount])))
  }
})
