// The model of LifecycleModel.test.ts: the actions fast-check draws (creates, sandbox pays, refunds, expiries,
// chargebacks and releases of receivables), the request each one sends, what SPEC 7.1–7.4 lets each one do to a model
// invoice, and where its money is (SPEC 7.4, 13.1): available, or waiting for the invoice's receivables.
import * as fc from "fast-check"
import { boletoPayer, cardRequest, pixRequest } from "./TestApp.js"

type Method = "pix" | "bank_slip" | "credit_card"
export type BalanceKind = "pix" | "card" | "bank_slip"
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

export type Action =
  | { readonly kind: "create"; readonly variant: Variant; readonly amount: number; readonly installments: number }
  | { readonly kind: "pay"; readonly target: Target }
  | { readonly kind: "refund"; readonly target: Target; readonly amount: RefundAmount; readonly reason: boolean }
  | { readonly kind: "expire"; readonly target: Target }
  | { readonly kind: "chargeback"; readonly target: Target }
  | { readonly kind: "release"; readonly target: Target }

export interface ModelInvoice {
  readonly secureId: string
  readonly method: Method
  readonly amount: number
  readonly fee: number
  status: Status
  refunded: number
  refunds: number
  /** What the invoice's own ledger entries add up to (credits minus debits). */
  net: number
  /** What each installment's receivables still wait for (index k − 1 for installment k); none before it is paid. */
  waiting: Array<number>
  readonly timeline: Array<Status>
}

export interface Model {
  readonly invoices: Array<ModelInvoice>
  /** The available balances (`balance_*`). */
  readonly balances: Record<BalanceKind, number>
  /** What the receivables of each balance still wait for (`waiting_funds_*`). */
  readonly waiting: Record<BalanceKind, number>
  /** Σ amount of the invoices ever paid (SPEC 5.3 `amount_invoice_total`). */
  paidTotal: number
}

/** The allowed moves of SPEC 7.1, as timeline steps; a further partial refund is a move too. */
export const allowedSteps = new Set([
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

export const balanceKindOf = (method: Method): BalanceKind => (method === "credit_card" ? "card" : method)
export const methodOf = (variant: Variant): Method =>
  variant === "pix" ? "pix" : variant === "bank_slip" ? "bank_slip" : "credit_card"

/** SPEC 7.2–7.3 with the default plan: round half up of a percentage in hundredths, plus the fixed part, capped. */
export const feeOf = (method: Method, installments: number, amount: number) => {
  const [basisPoints, fixed] =
    method === "pix"
      ? [199, 0]
      : method === "bank_slip"
        ? [0, 349]
        : [installments === 1 ? 399 : installments <= 6 ? 499 : 599, 39]
  return Math.min(Math.floor((amount * basisPoints + 5_000) / 10_000) + fixed, amount)
}

export const createBody = (action: Extract<Action, { kind: "create" }>) => {
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

export const createArbitrary: fc.Arbitrary<Action> = fc.record({
  kind: fc.constant("create" as const),
  variant: fc.constantFrom<Variant>("pix", "bank_slip", "card_approved", "card_refused", "card_checkout"),
  // Small amounts too: a boleto of R$ 3,49 or less is all fee, and its balance cannot cover its refund.
  amount: fc.oneof(fc.integer({ min: 100, max: 1_500 }), fc.integer({ min: 100, max: 50_000 })),
  installments: fc.oneof(
    { weight: 3, arbitrary: fc.constant(1) },
    { weight: 1, arbitrary: fc.integer({ min: 2, max: 12 }) }
  )
})

export const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
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
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("chargeback" as const), target }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("release" as const), target }) }
)

const refundable = (status: Status) => status === "paid" || status === "partially_refunded"

/** Whether the model lets `kind` move this invoice (SPEC 7.1, 4.9); a release moves any (what waits, if anything). */
export const canMove = (kind: Exclude<Action["kind"], "create">, invoice: ModelInvoice) => {
  switch (kind) {
    case "release":
      return true
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

export const pick = (model: Model, action: Exclude<Action, { kind: "create" }>): ModelInvoice | undefined => {
  if (action.target === null) return undefined
  // A release fits an invoice whose receivables wait for something.
  const fits = (invoice: ModelInvoice) =>
    action.kind === "release" ? waitingOf(invoice) > 0 : canMove(action.kind, invoice)
  const fitting = action.target.fitting ? model.invoices.filter(fits) : []
  const among = fitting.length > 0 ? fitting : model.invoices
  return among.length === 0 ? undefined : among[action.target.index % among.length]
}

export type Prediction =
  | { readonly status: 200 | 201; readonly apply: () => ModelInvoice }
  | { readonly status: 404 | 409 | 422; readonly code: string; readonly message?: string }

export const unknownId = "00000000-0000-4000-8000-000000000000"

const sum = (values: ReadonlyArray<number>) => values.reduce((total, value) => total + value, 0)

/** What an invoice's receivables still wait for, all installments together. */
export const waitingOf = (invoice: ModelInvoice) => sum(invoice.waiting)

/** `total` over `n` installments (SPEC 13.1): each the whole part of the division, the first also the remainder. */
const split = (total: number, n: number) =>
  Array.from({ length: n }, (_, index) => Math.floor(total / n) + (index === 0 ? total % n : 0))

/**
 * Pays an invoice in `installments` (SPEC 13.1): a pix is available the moment it is paid (D+0); a boleto waits
 * until the next business day, and each card installment 30·k days, always a later day than the payment's: their
 * net waits until a release (no sweep runs in the test).
 */
export const pay = (model: Model, invoice: ModelInvoice, installments: number) => {
  const kind = balanceKindOf(invoice.method)
  invoice.status = "paid"
  invoice.timeline.push("paid")
  invoice.net = invoice.amount - invoice.fee
  model.paidTotal += invoice.amount
  if (invoice.method === "pix") {
    model.balances[kind] += invoice.net
    return
  }
  const fees = split(invoice.fee, installments)
  invoice.waiting = split(invoice.amount, installments).map((amount, index) => amount - fees[index]!)
  model.waiting[kind] += invoice.net
}

/**
 * Takes `amount` back from an invoice for a refund or a chargeback (SPEC 7.4): out of what its installments still
 * wait for, the latest first, and the rest out of the available balance of its method.
 */
export const takeBack = (model: Model, invoice: ModelInvoice, amount: number) => {
  const kind = balanceKindOf(invoice.method)
  let left = amount
  for (let index = invoice.waiting.length - 1; index >= 0; index--) {
    const taken = Math.min(left, invoice.waiting[index]!)
    invoice.waiting[index]! -= taken
    left -= taken
  }
  model.waiting[kind] -= amount - left
  model.balances[kind] -= left
  invoice.net -= amount
}

/** The sandbox's release: what the invoice's receivables wait for is available now. */
export const release = (model: Model, invoice: ModelInvoice) => {
  const kind = balanceKindOf(invoice.method)
  model.balances[kind] += waitingOf(invoice)
  model.waiting[kind] -= waitingOf(invoice)
  invoice.waiting = invoice.waiting.map(() => 0)
}
