// SPEC 4.3, 4.4, 4.9, 6.1–6.2 (expiry), 7.1, 7.4: refunds, sandbox helpers, expiry and the invoice list.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bucketsOf, movement, release } from "./support/Receivables.js"
import { boletoPayer, cardRequest, pixRequest, startApp, type TestApp } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

describe.each(testDatabases)("invoice lifecycle on $name", (database) => {
  let app: TestApp

  beforeAll(async () => {
    app = await startApp(database)
  })
  afterAll(() => app.stop())

  const company = async () => {
    const { secretKey } = await app.registerCompany()
    const call = (method: string, path: string, body?: unknown) => app.request(method, path, { key: secretKey, body })
    return {
      key: secretKey,
      create: async (body: unknown) => (await call("POST", "/api/v2/invoices", body)).body,
      refund: (id: string, amount?: number, reason?: string) =>
        call("POST", "/api/v2/invoices/refund", { id, ...(amount === undefined ? {} : { amount }), reason }),
      sandbox: (action: string, id: string | number) =>
        call("POST", `/api/v2/sandbox/invoices/${action}`, { id: String(id) }),
      /** Creates an invoice paid at once (a card's), and releases its receivables: its money is available now. */
      released: async (body: unknown) =>
        release(app, secretKey, (await call("POST", "/api/v2/invoices", body)).body.id),
      get: async (id: string) => (await call("GET", `/api/v2/invoices?id=${id}`)).body,
      info: async () => (await call("GET", "/api/v2/company")).body,
      /** The card balance: available, and waiting for its receivables. */
      card: () => call("GET", "/api/v2/company").then(({ body }) => [body.balance_card, body.waiting_funds_card]),
      list: (query = "") => call("GET", `/api/v2/invoices/list${query}`)
    }
  }

  describe("refunds", () => {
    it("refunds part, then part again, then the rest, with reasons, ledger entries, timeline and events", async () => {
      const merchant = await company()
      // Another sale, released: its money is available for what the invoice's own receivable cannot cover (its fee).
      await merchant.released(cardRequest({}, { total_price_cents: 50_000 }))
      const paid = await merchant.create(cardRequest())
      expect(paid.status).toBe("paid")
      const first = await merchant.refund(paid.secureId, 3_000, "damaged item")
      expect(first.status).toBe(201)
      expect(first.body).toMatchObject({ status: "partially_refunded", refundedAmount: 3_000 })
      expect(first.body.refunds).toEqual([
        {
          id: expect.any(Number),
          amount: 3_000,
          reason: "damaged item",
          status: "succeeded",
          created_at: expect.any(String)
        }
      ])
      // The id may come as a string or as a JSON number.
      const second = await app.request("POST", "/api/v2/invoices/refund", {
        key: merchant.key,
        body: { id: paid.id, amount: 2_000 }
      })
      expect(second.body).toMatchObject({ status: "partially_refunded", refundedAmount: 5_000 })
      const rest = await merchant.refund(paid.secureId)
      expect(rest.status).toBe(201)
      expect(rest.body).toMatchObject({ status: "refunded", refundedAmount: 10_000 })
      expect(rest.body.refunds.map((refund: { amount: number }) => refund.amount)).toEqual([3_000, 2_000, 5_000])
      expect(rest.body.timeline.map((entry: { status: string }) => entry.status)).toEqual([
        "pending",
        "paid",
        "partially_refunded",
        "partially_refunded",
        "refunded"
      ])
      // The first two out of the invoice's waiting receivable; the rest takes what it still waits for (9 562 −
      // 5 000) and the remainder out of the available balance: one debit per bucket.
      const refunds = rest.body.financial_movements.filter((entry: { type: string }) => entry.type === "refund")
      expect(refunds).toEqual([
        ...[3_000, 2_000, 4_562].map((amount) => movement("refund", "debit", amount, "card", "waiting")),
        movement("refund", "debit", 438, "card", "available")
      ])
      // Both sales net of their fees (50 000 − 2 034, 10 000 − 438), less the refunds: the fee is not returned.
      expect(await merchant.card()).toEqual([50_000 - 2_034 + 10_000 - 438 - 10_000, 0])
      const events = await app.query(
        `SELECT type FROM events WHERE invoice_id = ${Number(paid.id)} ORDER BY created_at, type`
      )
      expect(events.map((event) => event.type)).toEqual([
        "invoice.created",
        "invoice.paid",
        "invoice.partially_refunded",
        "invoice.partially_refunded",
        "invoice.refunded"
      ])
    })

    it("answers 409 invalid_state for a pending, refused or fully refunded invoice, before looking at the amount", async () => {
      const merchant = await company()
      // Released, this sale's money covers the fee the full refund does not get back from the invoice's receivable.
      await merchant.released(cardRequest({}, { total_price_cents: 50_000 }))
      const pending = await merchant.create(pixRequest())
      const refused = await merchant.create(cardRequest({ number: "4000000000000002" }))
      const paid = await merchant.create(cardRequest())
      expect((await merchant.refund(paid.secureId)).status).toBe(201)
      for (const invoice of [pending, refused, paid]) {
        for (const amount of [999_999_999, 1e21]) {
          const reply = await merchant.refund(invoice.secureId, amount)
          expect(reply.status).toBe(409)
          expect(reply.body.code).toBe("invalid_state")
        }
      }
    })

    it("answers 422 refund_exceeds_remaining above what is left, and 400 below one cent", async () => {
      const merchant = await company()
      const paid = await merchant.create(cardRequest())
      await merchant.refund(paid.secureId, 4_000)
      // However large: an integer the client's JSON writes as 2^53 or 1e21 is still just more than is left.
      for (const amount of [6_001, 2 ** 53, 1e21]) {
        const over = await merchant.refund(paid.secureId, amount)
        expect(over.status, String(amount)).toBe(422)
        expect(over.body.code).toBe("refund_exceeds_remaining")
      }
      for (const amount of [0, -5, 1.5]) {
        const reply = await merchant.refund(paid.secureId, amount)
        expect(reply.status).toBe(400)
        expect(reply.body.issues).toEqual([expect.objectContaining({ path: "amount" })])
      }
      expect((await merchant.get(paid.secureId)).refundedAmount).toBe(4_000)
    })

    it("answers 422 insufficient_balance when the method's balance cannot cover the refund", async () => {
      const merchant = await company()
      // A small sale, released: 300 − 51 = 249 available.
      await merchant.released(cardRequest({}, { total_price_cents: 300 }))
      const paid = await merchant.create(cardRequest())
      // Its waiting receivable's 10 000 − 438 and the available 249 are together 9 811: less than a full refund.
      const reply = await merchant.refund(paid.secureId)
      expect([reply.status, reply.body.code]).toEqual([422, "insufficient_balance"])
      expect(reply.body.message).toBe("the balance (9811) does not cover a refund of 10000")
      expect(await merchant.card()).toEqual([249, 9_562])
      expect((await merchant.refund(paid.secureId, 9_811)).status).toBe(201)
      expect(await merchant.card()).toEqual([0, 0])
    })

    it("answers 404 for another company's invoice and for unknown ids", async () => {
      const owner = await company()
      const other = await company()
      const paid = await owner.create(cardRequest())
      for (const id of [paid.secureId, String(paid.id), crypto.randomUUID(), "nope"]) {
        const reply = await other.refund(id, 100)
        expect(reply.status).toBe(404)
      }
      expect((await owner.get(paid.secureId)).refundedAmount).toBe(0)
    })
  })

  describe("sandbox helpers", () => {
    it("pays pending pix and boleto invoices through the real rules: ledger, paidAt, balances, totals", async () => {
      const merchant = await company()
      const pix = await merchant.create(pixRequest({ total_price_cents: 10_000 }))
      const boleto = await merchant.create(
        pixRequest({ method: "bank_slip", total_price_cents: 20_000, payer: boletoPayer })
      )
      const paidPix = await merchant.sandbox("pay", pix.secureId)
      expect(paidPix.status).toBe(200)
      expect(paidPix.body).toMatchObject({ status: "paid" })
      expect(paidPix.body.paidAt).toMatch(/Z$/)
      // A pix is available the day it is paid (D+0); a boleto waits until the next business day (D+1).
      expect(paidPix.body.financial_movements).toEqual([
        movement("payment", "credit", 10_000, "pix", "available"),
        movement("fee", "debit", 199, "pix", "available")
      ])
      const paidBoleto = await app.request("POST", "/api/v2/sandbox/invoices/pay", {
        key: merchant.key,
        body: { id: boleto.id }
      })
      expect(paidBoleto.body.status).toBe("paid")
      expect(paidBoleto.body.financial_movements).toEqual([
        movement("payment", "credit", 20_000, "bank_slip", "waiting"),
        movement("fee", "debit", 349, "bank_slip", "waiting")
      ])
      const info = await merchant.info()
      expect(bucketsOf(info)).toEqual({
        available: { pix: 9_801, card: 0, bank_slip: 0 },
        waiting: { pix: 0, card: 0, bank_slip: 20_000 - 349 }
      })
      expect(info).toMatchObject({ amount_invoice_total: 30_000, amount_invoices_competicion: 30_000 })
      const again = await merchant.sandbox("pay", pix.secureId)
      expect(again.status).toBe(409)
      expect(again.body.code).toBe("invalid_state")
    })

    it("does not pay card invoices: they are paid with a card", async () => {
      const merchant = await company()
      const pending = await merchant.create(pixRequest({ method: "credit_card" }))
      expect((await merchant.sandbox("pay", pending.secureId)).status).toBe(409)
    })

    it("expires pending invoices of any method, and nothing else", async () => {
      const merchant = await company()
      const pix = await merchant.create(pixRequest())
      const card = await merchant.create(pixRequest({ method: "credit_card" }))
      for (const invoice of [pix, card]) {
        const reply = await merchant.sandbox("expire", invoice.secureId)
        expect(reply.body.status).toBe("expired")
        expect(reply.body.timeline.map((entry: { status: string }) => entry.status)).toEqual(["pending", "expired"])
      }
      expect((await merchant.sandbox("expire", pix.secureId)).status).toBe(409)
      expect((await merchant.sandbox("pay", pix.secureId)).status).toBe(409)
      const paid = await merchant.create(cardRequest())
      expect((await merchant.sandbox("expire", paid.secureId)).status).toBe(409)
    })

    it("charges back what was not refunded of a paid or partially refunded card invoice", async () => {
      const merchant = await company()
      await merchant.released(cardRequest({}, { total_price_cents: 20_000 }))
      const paid = await merchant.create(cardRequest())
      await merchant.refund(paid.secureId, 2_500)
      // Released, the other sale is available (20 000 − 837); the refund took 2 500 of the invoice's waiting 9 562.
      expect(await merchant.card()).toEqual([19_163, 7_062])
      const reply = await merchant.sandbox("chargeback", paid.secureId)
      expect(reply.status).toBe(200)
      expect(reply.body.status).toBe("chargedback")
      // The 7 500 not refunded: what the receivable still waits for, then the rest out of the available balance.
      expect(reply.body.financial_movements.slice(-2)).toEqual([
        movement("chargeback", "debit", 7_062, "card", "waiting"),
        movement("chargeback", "debit", 438, "card", "available")
      ])
      expect(await merchant.card()).toEqual([19_163 - 438, 0])
      expect((await merchant.sandbox("chargeback", paid.secureId)).status).toBe(409)
      expect((await merchant.refund(paid.secureId, 100)).status).toBe(409)
    })

    it("lets a chargeback take the balance below zero", async () => {
      const merchant = await company()
      const paid = await merchant.create(cardRequest())
      await merchant.sandbox("chargeback", paid.secureId)
      // All its receivable waits for, 9 562, and the 438 of the fee out of an available balance of nothing.
      expect(await merchant.card()).toEqual([9_562 - 10_000, 0])
    })

    it("charges back card invoices only", async () => {
      const merchant = await company()
      const pix = await merchant.create(pixRequest())
      await merchant.sandbox("pay", pix.secureId)
      const reply = await merchant.sandbox("chargeback", pix.secureId)
      expect(reply.status).toBe(409)
      expect(reply.body.code).toBe("invalid_state")
    })

    it("answers 403 to a live key", async () => {
      const registered = await app.registerCompany()
      const live = await app.createKey(registered.company.id, "live")
      const invoice = (await app.request("POST", "/api/v2/invoices", { key: live.secretKey, body: pixRequest() })).body
      for (const path of ["invoices/pay", "invoices/expire", "invoices/chargeback", "receivables/release"]) {
        const reply = await app.request("POST", `/api/v2/sandbox/${path}`, {
          key: live.secretKey,
          body: { id: invoice.secureId }
        })
        expect(reply.status).toBe(403)
        expect(reply.body.code).toBe("forbidden")
      }
    })
  })

  describe("expiry", () => {
    it("expires a pending pix after expires_in and a boleto after the end of its due date, as time is injected", async () => {
      const merchant = await company()
      const pix = await merchant.create(pixRequest({ expires_in: 600 }))
      const paidPix = await merchant.create(pixRequest({ expires_in: 600 }))
      await merchant.sandbox("pay", paidPix.secureId)
      const boleto = await merchant.create(pixRequest({ method: "bank_slip", payer: boletoPayer }))
      const created = Date.parse(pix.createdAt)

      await app.sweepExpirationsAt(new Date(created + 599_000))
      expect((await merchant.get(pix.secureId)).status).toBe("pending")

      await app.sweepExpirationsAt(new Date(created + 601_000))
      const expired = await merchant.get(pix.secureId)
      expect(expired.status).toBe("expired")
      expect(expired.timeline.map((entry: { status: string }) => entry.status)).toEqual(["pending", "expired"])
      expect((await merchant.get(paidPix.secureId)).status).toBe("paid")
      expect((await merchant.get(boleto.secureId)).status).toBe("pending")

      // The due date is a São Paulo business date: the slip is payable through 23:59:59 of that day (UTC−3).
      const dueDate = boleto.boleto.due_date
      await app.sweepExpirationsAt(new Date(`${dueDate}T23:59:00-03:00`))
      expect((await merchant.get(boleto.secureId)).status).toBe("pending")
      await app.sweepExpirationsAt(new Date(`${dueDate}T23:59:59-03:00`))
      expect((await merchant.get(boleto.secureId)).status).toBe("pending")
      await app.sweepExpirationsAt(new Date(Date.parse(`${dueDate}T23:59:59-03:00`) + 2_000))
      expect((await merchant.get(boleto.secureId)).status).toBe("expired")

      const events = await app.query(`SELECT type FROM events WHERE invoice_id = ${Number(pix.id)} ORDER BY created_at`)
      expect(events.map((event) => event.type)).toEqual(["invoice.created", "invoice.expired"])
    })
  })

  describe("the list", () => {
    it("pages newest first with a cursor that never skips or repeats, also while invoices are created", async () => {
      const merchant = await company()
      const created: Array<string> = []
      for (let i = 0; i < 7; i++)
        created.push((await merchant.create(pixRequest({ external_ref: `page-${i}` }))).secureId)
      const seen: Array<string> = []
      let cursor: string | null = null
      let pages = 0
      do {
        const reply = await merchant.list(`?limit=3${cursor === null ? "" : `&starting_after=${cursor}`}`)
        expect(reply.status).toBe(200)
        seen.push(...reply.body.data.map((invoice: { secureId: string }) => invoice.secureId))
        cursor = reply.body.next_cursor
        expect(reply.body.has_more).toBe(cursor !== null)
        // Newcomers arrive while paging: they are newer than the cursor and never enter later pages.
        await merchant.create(pixRequest({ external_ref: "newcomer" }))
        pages++
      } while (cursor !== null)
      expect(pages).toBe(3)
      expect(seen).toEqual([...created].reverse())
    })

    it("filters by status, method, creation time and external_ref", async () => {
      const merchant = await company()
      const pix = await merchant.create(pixRequest({ external_ref: "filter-a" }))
      const card = await merchant.create(cardRequest({}, { external_ref: "filter-b" }))
      const ids = async (query: string) =>
        (await merchant.list(query)).body.data.map((invoice: { secureId: string }) => invoice.secureId)
      expect(await ids("?status=paid")).toEqual([card.secureId])
      expect(await ids("?payment_method=pix")).toEqual([pix.secureId])
      expect(await ids("?external_ref=filter-a")).toEqual([pix.secureId])
      expect(await ids(`?created_gte=${encodeURIComponent(card.createdAt)}`)).toEqual([card.secureId])
      expect(await ids(`?created_lte=${encodeURIComponent(pix.createdAt)}`)).toEqual([pix.secureId])
      expect(await ids("?created_gte=2000-01-01T00:00:00-03:00&status=pending")).toEqual([pix.secureId])
    })

    it("takes created_gte and created_lte only as real instants from 1900 to 9999, else 400 naming them", async () => {
      const merchant = await company()
      const pix = await merchant.create(pixRequest())
      const refused = [
        "created_gte=0000-01-01T00:00:00Z",
        "created_gte=1899-12-31T23:59:59Z",
        "created_gte=1900-01-01T00:00:00%2B00:01",
        "created_lte=9999-12-31T23:59:59-03:00",
        "created_gte=2026-02-30T00:00:00Z",
        "created_gte=2100-02-29T00:00:00Z",
        "created_gte=2026-04-31T00:00:00-03:00",
        "created_gte=2026-13-01T00:00:00Z",
        "created_gte=2026-00-10T00:00:00Z",
        "created_lte=2026-01-00T00:00:00Z",
        "created_lte=2026-01-01T24:00:00Z",
        "created_lte=2026-01-01T23:60:00Z",
        "created_lte=2026-12-31T23:59:60Z",
        "created_lte=2026-01-01T00:00:00%2B24:00",
        "created_lte=2026-01-01T00:00:00-03:60",
        "created_lte=2026-01-01T00:00:00"
      ]
      for (const query of refused) {
        const reply = await merchant.list(`?${query}`)
        expect(reply.status, `${query}: ${JSON.stringify(reply.body)}`).toBe(400)
        expect(reply.body.code).toBe("invalid_request")
        expect(reply.body.issues.map((issue: { path: string }) => issue.path)).toContain(query.split("=")[0])
      }
      const accepted = [
        "created_gte=1900-01-01T00:00:00Z",
        "created_gte=1899-12-31T23:00:00-03:00",
        "created_lte=9999-12-31T23:59:59.999999Z",
        "created_lte=9999-12-31T23:59:59%2B03:00",
        "created_gte=2000-02-29T12:00:00-03:00",
        "created_gte=1969-12-31T23:59:59.999999Z"
      ]
      for (const query of accepted) {
        const reply = await merchant.list(`?${query}`)
        expect(reply.status, `${query}: ${JSON.stringify(reply.body)}`).toBe(200)
        expect(reply.body.data.map((invoice: { secureId: string }) => invoice.secureId)).toEqual([pix.secureId])
      }
    })

    it("defaults to 20 and takes 1 to 100", async () => {
      const merchant = await company()
      for (let i = 0; i < 21; i++) await merchant.create(pixRequest())
      const page = await merchant.list()
      expect(page.body.data).toHaveLength(20)
      expect(page.body.has_more).toBe(true)
      for (const bad of ["?limit=0", "?limit=101", "?limit=abc", "?status=paidd", "?created_gte=yesterday"]) {
        const reply = await merchant.list(bad)
        expect(reply.status, bad).toBe(400)
      }
      const unknownCursor = await merchant.list(`?starting_after=${crypto.randomUUID()}`)
      expect(unknownCursor.status).toBe(404)
      expect(unknownCursor.body.code).toBe("not_found")
    })

    it("shows only the caller's invoices", async () => {
      const mine = await company()
      const theirs = await company()
      await theirs.create(pixRequest())
      const own = await mine.create(pixRequest())
      const page = await mine.list()
      expect(page.body.data.map((invoice: { secureId: string }) => invoice.secureId)).toEqual([own.secureId])
      expect(page.body).toMatchObject({ has_more: false, next_cursor: null })
    })
  })
})
