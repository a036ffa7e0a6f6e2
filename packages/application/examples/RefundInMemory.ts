import { Authentication, Companies, InvoiceLifecycle, Invoices } from "@fatura/application"
import { TestApplication } from "@fatura/application/testing"
import { Effect } from "effect"

// A sale of R$ 100,00 by pix, paid through the sandbox helper, then refunded in part: every use case runs as in the
// server, over a database that lives in memory and is gone when the effect ends.
export const refundedSale = Effect.gen(function* () {
  const { secretKey } = yield* (yield* Companies).register({
    cnpj: "11222333000181",
    name: "Loja Exemplo Ltda",
    email: "financeiro@loja.example"
  })
  const merchant = yield* (yield* Authentication).authenticate(secretKey)
  const { invoice } = yield* (yield* Invoices).create(merchant, {
    method: "pix",
    totalPriceCents: 10_000,
    items: null,
    tangible: false,
    payer: {
      name: "Maria Souza",
      document: { type: "cpf", number: "52998224725" },
      email: "maria@example.com",
      phone: null,
      address: { zip: null, line: null, number: null, complement: null, city: null, state: null }
    },
    ip: null,
    postbackUrl: null,
    externalRef: "pedido-1042",
    metadata: null,
    expiresIn: null,
    dueDate: null,
    card: null
  })
  const lifecycle = yield* InvoiceLifecycle
  yield* lifecycle.pay(merchant, invoice.secureId)
  const { invoice: refunded, totals } = yield* lifecycle.refund(merchant, invoice.secureId, 3_000, "out of stock")
  return { status: refunded.status, refundedAmount: refunded.refundedAmount, pixBalance: totals.balancePix }
}).pipe(Effect.provide(TestApplication.layer))
