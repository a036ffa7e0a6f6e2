// The three ways an invoice can be paid, and the company balance each one feeds (SPEC 6, 7.4).
import { Schema } from "effect"

export const PaymentMethod = Schema.Literals(["pix", "bank_slip", "credit_card"])
export type PaymentMethod = typeof PaymentMethod.Type

export const BalanceKind = Schema.Literals(["pix", "card", "bank_slip"])
export type BalanceKind = typeof BalanceKind.Type

const balanceKinds: { readonly [M in PaymentMethod]: BalanceKind } = {
  pix: "pix",
  bank_slip: "bank_slip",
  credit_card: "card"
}

export const balanceKindOf = (method: PaymentMethod): BalanceKind => balanceKinds[method]
