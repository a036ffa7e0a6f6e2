// Finding and listing the caller's invoices (SPEC 4.2), against the in-memory ports.
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { Invoices } from "../src/invoices/Invoices.js"
import {
  boletoRequest,
  cardRequest,
  listAll,
  liveMode,
  pixRequest,
  provided,
  registerMerchant
} from "./support/Merchant.js"

describe("Invoices.find and Invoices.list", () => {
  it.effect("finds the caller's invoice by secureId or id; another company's, or the other mode's, is not found", () =>
    provided(
      Effect.gen(function* () {
        const merchant = yield* registerMerchant()
        const other = yield* registerMerchant()
        const invoices = yield* Invoices
        const { invoice } = yield* invoices.create(merchant.principal, pixRequest())
        expect((yield* invoices.find(merchant.principal, invoice.secureId)).invoice.id).toBe(invoice.id)
        expect((yield* invoices.find(merchant.principal, String(invoice.id))).invoice.secureId).toBe(invoice.secureId)
        const live = yield* liveMode(merchant.principal)
        for (const [principal, reference] of [
          [other.principal, invoice.secureId],
          [other.principal, String(invoice.id)],
          [live, invoice.secureId]
        ] as const) {
          expect(yield* Effect.flip(invoices.find(principal, reference))).toMatchObject({ _tag: "InvoiceNotFound" })
        }
      })
    )
  )

  it.effect("lists newest first, a page at a time, with filters", () =>
    provided(
      Effect.gen(function* () {
        const { principal } = yield* registerMerchant()
        const invoices = yield* Invoices
        const created = []
        for (const request of [pixRequest(), boletoRequest(), cardRequest(), pixRequest({ externalRef: "pedido-7" })]) {
          created.push((yield* invoices.create(principal, request)).invoice)
          yield* TestClock.adjust("1 minute")
        }
        const ids = created.map((invoice) => invoice.id)
        const first = yield* invoices.list(principal, { ...listAll, limit: 3 })
        expect(first.invoices.map((invoice) => invoice.id)).toEqual(ids.slice(1).reverse())
        expect(first.hasMore).toBe(true)
        const next = yield* invoices.list(principal, { ...listAll, limit: 3, startingAfter: String(ids[1]) })
        expect(next.invoices.map((invoice) => invoice.id)).toEqual([ids[0]])
        expect(next.hasMore).toBe(false)
        const pix = yield* invoices.list(principal, { ...listAll, method: "pix" })
        expect(pix.invoices.map((invoice) => invoice.id)).toEqual([ids[3], ids[0]])
        const paid = yield* invoices.list(principal, { ...listAll, status: "paid" })
        expect(paid.invoices.map((invoice) => invoice.id)).toEqual([ids[2]])
        const tagged = yield* invoices.list(principal, { ...listAll, externalRef: "pedido-7" })
        expect(tagged.invoices.map((invoice) => invoice.id)).toEqual([ids[3]])
        const later = yield* invoices.list(principal, { ...listAll, createdGte: created[2]!.createdAt })
        expect(later.invoices.map((invoice) => invoice.id)).toEqual([ids[3], ids[2]])
        expect(yield* Effect.flip(invoices.list(principal, { ...listAll, startingAfter: "999999" }))).toMatchObject({
          _tag: "UnknownCursor"
        })
      })
    )
  )
})
