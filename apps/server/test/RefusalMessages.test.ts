// Issue 24: what a merchant reads when a move is refused is in the contract's words. Every move a merchant or a payer
// can ask for (a refund of part, a refund of all, the sandbox's pay, expire and chargeback, the payer's card payment)
// is asked of an invoice in every status each method reaches, and of a card invoice whose payment waits for the
// acquirer. Every refusal's message names the operation as docs/contract.md does ("refund", "pay", "expire",
// "charge back") and carries no internal identifier: no action name (`refund_full` for a partial refund, once), no
// type name, no word of snake_case the contract does not use.
import { InvoiceStatus, PaymentMethod } from "@fatura/domain"
import { describe, expect, it } from "vitest"
import { gatedAcquirer, until } from "./support/GatedAcquirer.js"
import { inMemory } from "./support/InMemoryServices.js"
import { release } from "./support/Receivables.js"
import { appChargingThrough } from "./support/SuiteServers.js"
import { boletoRequest, cardRequest, payAsPayer, pixRequest, type Reply } from "./support/TestApp.js"

type Move = "refund part" | "refund all" | "sandbox pay" | "sandbox expire" | "sandbox chargeback" | "payer's pay"

const moves: ReadonlyArray<Move> = [
  "refund part",
  "refund all",
  "sandbox pay",
  "sandbox expire",
  "sandbox chargeback",
  "payer's pay"
]

/** How the contract names each move's operation: a refusal of it says so. */
const operationWords: Record<Move, RegExp> = {
  "refund part": /\brefund\b/,
  "refund all": /\brefund\b/,
  "sandbox pay": /\bpay\b/,
  "sandbox expire": /\bexpire\b/,
  "sandbox chargeback": /\bcharge back\b/,
  "payer's pay": /\bpay\b/
}

/** The snake_case words of the contract a message may use: statuses and methods. */
const contractWords = new Set<string>([
  ...InvoiceStatus.InvoiceStatus.literals,
  ...PaymentMethod.PaymentMethod.literals
])

/** What in a message is an internal identifier, if anything. */
const internalIdentifiers = (message: string): ReadonlyArray<string> => [
  ...(message.match(/\b[a-z]+(?:_[a-z]+)+\b/g) ?? []).filter((word) => !contractWords.has(word)),
  ...(message.match(/\b[A-Z][a-z]+(?:[A-Z][a-z]*)+\b/g) ?? []),
  ...(message.match(/\bdecline\b/g) ?? [])
]

type State =
  | {
      readonly method: "pix" | "bank_slip"
      readonly status: "pending" | "paid" | "partially_refunded" | "refunded" | "expired"
    }
  | {
      readonly method: "credit_card"
      readonly status:
        | "pending"
        | "paid"
        | "partially_refunded"
        | "refunded"
        | "expired"
        | "refused"
        | "chargedback"
        | "charging"
    }

const states: ReadonlyArray<State> = [
  ...(["pix", "bank_slip"] as const).flatMap((method) =>
    (["pending", "paid", "partially_refunded", "refunded", "expired"] as const).map((status) => ({ method, status }))
  ),
  ...(
    ["pending", "paid", "partially_refunded", "refunded", "expired", "refused", "chargedback", "charging"] as const
  ).map((status) => ({ method: "credit_card" as const, status }))
]

describe.each([inMemory])("refusal messages on $name", (database) => {
  const acquirer = gatedAcquirer()
  const suite = appChargingThrough(database, acquirer)

  const merchant = async () => {
    const { secretKey } = await suite.app.registerCompany({ name: "Loja Recusada Ltda" })
    const call = (path: string, body: unknown) => suite.app.request("POST", path, { key: secretKey, body })
    const created = async (body: unknown) => {
      const reply = await call("/api/v2/invoices", body)
      expect(reply.status, JSON.stringify(reply.body)).toBe(201)
      return reply.body
    }
    const moved = async (path: string, body: unknown) => {
      const reply = await call(path, body)
      expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300)
      return reply.body
    }
    /** An invoice of `state`, made as a merchant and its payer make one. */
    const invoiceIn = async (state: State) => {
      const pending = await created(
        state.method === "pix"
          ? pixRequest({ total_price_cents: 10_000 })
          : state.method === "bank_slip"
            ? boletoRequest({ total_price_cents: 10_000 })
            : pixRequest({ method: "credit_card", total_price_cents: 10_000 })
      )
      const id = pending.secureId
      switch (state.status) {
        case "pending":
          return pending
        case "charging": {
          acquirer.close()
          const paying = payAsPayer(suite.app, pending)
          await until(() => acquirer.state.waiting === 1)
          return { ...pending, paying }
        }
        case "expired":
          return moved("/api/v2/sandbox/invoices/expire", { id })
        case "refused":
          return created(cardRequest({ number: "4000000000000002" }, { total_price_cents: 10_000 }))
      }
      const paid =
        state.method === "credit_card"
          ? created(cardRequest({}, { total_price_cents: 10_000 }))
          : moved("/api/v2/sandbox/invoices/pay", { id })
      const paidId = (await paid).secureId
      switch (state.status) {
        case "paid":
          return paid
        case "partially_refunded":
          return moved("/api/v2/invoices/refund", { id: paidId, amount: 1_000 })
        case "refunded":
          return moved("/api/v2/invoices/refund", { id: paidId })
        case "chargedback":
          return moved("/api/v2/sandbox/invoices/chargeback", { id: paidId })
      }
    }

    const ask = (move: Move, invoice: { secureId: string; invoice: { token_checkout: string } }) => {
      const id = invoice.secureId
      switch (move) {
        case "refund part":
          return call("/api/v2/invoices/refund", { id, amount: 500, reason: "part" })
        case "refund all":
          return call("/api/v2/invoices/refund", { id })
        case "sandbox pay":
          return call("/api/v2/sandbox/invoices/pay", { id })
        case "sandbox expire":
          return call("/api/v2/sandbox/invoices/expire", { id })
        case "sandbox chargeback":
          return call("/api/v2/sandbox/invoices/chargeback", { id })
        case "payer's pay":
          return payAsPayer(suite.app, invoice)
      }
    }

    // Sales enough for every refund to be covered: a refund is refused for its status, not for the balance. A boleto's
    // and a card's money waits for its receivables, so they are released to be available (a pix's is at once).
    await moved("/api/v2/sandbox/invoices/pay", {
      id: (await created(pixRequest({ total_price_cents: 1_000_000 }))).secureId
    })
    const boleto = await moved("/api/v2/sandbox/invoices/pay", {
      id: (await created(boletoRequest({ total_price_cents: 1_000_000 }))).secureId
    })
    await release(suite.app, secretKey, boleto.secureId)
    await release(suite.app, secretKey, (await created(cardRequest({}, { total_price_cents: 1_000_000 }))).secureId)
    return { invoiceIn, ask }
  }

  it("every move refused, of every status of every method, says so in the contract's words", async () => {
    const { invoiceIn, ask } = await merchant()
    const refusals: Array<{
      readonly state: string
      readonly move: Move
      readonly status: number
      readonly message: string
    }> = []
    for (const state of states) {
      for (const move of moves) {
        const invoice = await invoiceIn(state)
        const reply: Reply = await ask(move, invoice)
        if (reply.status >= 400) {
          refusals.push({
            state: `${state.method} ${state.status}`,
            move,
            status: reply.status,
            message: String(reply.body.message)
          })
        }
        if ("paying" in invoice) {
          acquirer.open()
          expect((await invoice.paying).status).toBe(200)
        }
      }
    }

    expect(refusals.filter((refusal) => internalIdentifiers(refusal.message).length > 0)).toEqual([])
    expect(
      refusals.filter((refusal) => refusal.status === 409 && !operationWords[refusal.move].test(refusal.message))
    ).toEqual([])
    // The issue's own case, and one of each kind of refusal.
    expect(refusals).toEqual(
      expect.arrayContaining([
        { state: "pix pending", move: "refund part", status: 409, message: "cannot refund an invoice that is pending" },
        {
          state: "credit_card refunded",
          move: "refund part",
          status: 409,
          message: "cannot refund an invoice that is refunded"
        },
        {
          state: "pix paid",
          move: "sandbox chargeback",
          status: 409,
          message: "cannot charge back a pix invoice: only card payments are charged back"
        },
        {
          state: "credit_card pending",
          move: "sandbox pay",
          status: 409,
          message: "cannot pay a credit_card invoice in the sandbox: its payer pays it with a card"
        },
        {
          state: "bank_slip pending",
          move: "payer's pay",
          status: 409,
          message: "cannot pay a bank_slip invoice with a card"
        },
        {
          state: "credit_card charging",
          move: "sandbox expire",
          status: 409,
          message: "cannot expire an invoice whose card payment is waiting for the acquirer's answer"
        },
        {
          state: "credit_card refunded",
          move: "sandbox chargeback",
          status: 409,
          message: "cannot charge back an invoice that is refunded"
        }
      ])
    )
    // Some 300 requests, one after another, on a machine that may be busy.
  }, 600_000)
})
