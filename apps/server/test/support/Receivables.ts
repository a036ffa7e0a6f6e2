// What the tests of money need now that a payment's money waits for its receivables (SPEC 7.4, 13.1): the sandbox's
// release of an invoice's waiting receivables, a ledger entry as a response shows it (with its bucket), and a
// company's balances per bucket as Company Infos shows them.
import { expect } from "vitest"
import type { TestApp } from "./TestApp.js"

export type BalanceKind = "pix" | "card" | "bank_slip"
export type Bucket = "available" | "waiting"

/**
 * Makes the invoice's waiting receivables available now, as if their days had come (test keys only), and answers
 * the invoice: for a test that needs a sale's money in the available balance.
 */
export const release = async (app: TestApp, key: string, id: string | number) => {
  const reply = await app.request("POST", "/api/v2/sandbox/receivables/release", { key, body: { id: String(id) } })
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return reply.body
}

/** A ledger entry of `financial_movements`, in the bucket it is in. */
export const movement = (type: string, direction: string, amount: number, balance: BalanceKind, bucket: Bucket) =>
  expect.objectContaining({ type, direction, amount, balance, bucket })

/** Each balance of an Enterprise object (Company Infos, an invoice's `enterprise`) in its two buckets. */
export const bucketsOf = (enterprise: Record<string, number>): Record<Bucket, Record<BalanceKind, number>> => ({
  available: { pix: enterprise.balance_pix!, card: enterprise.balance_card!, bank_slip: enterprise.balance_bank_slip! },
  waiting: {
    pix: enterprise.waiting_funds_pix!,
    card: enterprise.waiting_funds_card!,
    bank_slip: enterprise.waiting_funds_bank_slip!
  }
})
