// SPEC 3 and 4.1: what Create Invoices refuses (400 invalid_request with one dotted-path issue per problem,
// 422 for business rules), what it accepts, and that a refused request leaves nothing behind: the items, the optional
// fields and the body as a whole. The payer, the method and the total are CreateInvoiceValidation.test.ts's.
import { describe, expect, it } from "vitest"
import { bankSlipAddress, createValidation, item, manyKeys, withPayer } from "./support/CreateValidation.js"
import { appWithCompany } from "./support/SuiteServers.js"
import { pixRequest } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

describe.each(testDatabases)(
  "create invoice validation of the items, optional fields and body on $name",
  (database) => {
    const suite = appWithCompany(database)
    const { stored, expectInvalidBody, expectInvalid, expectUnprocessable, expectCreated } = createValidation(suite)

    describe("items", () => {
      it.each([
        { label: "items not an array (string)", body: pixRequest({ items: "bread" }), path: "items" },
        { label: "items not an array (object)", body: pixRequest({ items: { name: "bread" } }), path: "items" },
        {
          label: "an item with quantity 0",
          body: pixRequest({ total_price_cents: 12_345, items: [item("Bread", 0, 12_345)] }),
          path: "items.0.quantity"
        },
        {
          label: "an item with quantity 10_001",
          body: pixRequest({ total_price_cents: 10_001, items: [item("Bread", 10_001, 1)] }),
          path: "items.0.quantity"
        },
        {
          label: "an item with a fractional quantity",
          body: pixRequest({ total_price_cents: 300, items: [item("Bread", 1.5, 200)] }),
          path: "items.0.quantity"
        },
        {
          label: "an item with unit_price -1",
          body: pixRequest({ total_price_cents: 12_345, items: [item("Bread", 1, 12_346), item("Discount", 1, -1)] }),
          path: "items.1.unit_price"
        },
        {
          label: "an item with an empty name",
          body: pixRequest({ total_price_cents: 12_345, items: [item("", 1, 12_345)] }),
          path: "items.0.name"
        },
        {
          label: "an item with a name of 256 characters",
          body: pixRequest({ total_price_cents: 12_345, items: [item("b".repeat(256), 1, 12_345)] }),
          path: "items.0.name"
        },
        {
          label: "an item without a name",
          body: pixRequest({ total_price_cents: 12_345, items: [{ quantity: 1, unit_price: 12_345 }] }),
          path: "items.0.name"
        },
        {
          label: "more than 100 items",
          body: pixRequest({
            total_price_cents: 10_100,
            items: Array.from({ length: 101 }, () => item("Bread", 1, 100))
          }),
          path: "items"
        }
      ])("answers 400 for $label", async ({ body, path }) => {
        await expectInvalid(body, path)
      })

      it("accepts exactly 100 items", async () => {
        const reply = await expectCreated(
          pixRequest({ total_price_cents: 10_000, items: Array.from({ length: 100 }, () => item("Bread", 1, 100)) })
        )
        expect(reply.body.items).toHaveLength(100)
      })

      it.each([
        { label: "one cent more", total: 12_346 },
        { label: "one cent less", total: 12_344 }
      ])("answers 422 total_mismatch when the items add up to $label than the total", async ({ total }) => {
        // The items add up to 3 × 2_000 + 1 × 6_345 = 12_345.
        const items = [item("Bread", 3, 2_000), item("Cake", 1, 6_345)]
        await expectUnprocessable(pixRequest({ total_price_cents: total, items }), "total_mismatch")
      })

      it("accepts items that add up to the total exactly", async () => {
        const items = [item("Bread", 3, 2_000), item("Cake", 1, 6_345), item("Gift", 2, 0)]
        const reply = await expectCreated(pixRequest({ total_price_cents: 12_345, items }))
        expect(reply.body.amount).toBe(12_345)
        expect(reply.body.items.map((entry: { title: string }) => entry.title)).toEqual(["Bread", "Cake", "Gift"])
      })
    })

    describe("optional fields", () => {
      it.each([
        { label: "product_fisical yes", body: pixRequest({ product_fisical: "yes" }), path: "product_fisical" },
        { label: "ip_payer 999.1.1.1", body: pixRequest({ ip_payer: "999.1.1.1" }), path: "ip_payer" },
        { label: "ip_payer 1.2.3", body: pixRequest({ ip_payer: "1.2.3" }), path: "ip_payer" },
        { label: "ip_payer not an address", body: pixRequest({ ip_payer: "localhost" }), path: "ip_payer" },
        { label: "postback_url ftp://x", body: pixRequest({ postback_url: "ftp://x" }), path: "postback_url" },
        { label: "postback_url not a url", body: pixRequest({ postback_url: "not a url" }), path: "postback_url" },
        { label: "postback_url relative", body: pixRequest({ postback_url: "/hooks/fatura" }), path: "postback_url" },
        { label: "metadata with 51 keys", body: pixRequest({ metadata: manyKeys(51) }), path: "metadata" },
        {
          label: "a metadata value of 501 characters",
          body: pixRequest({ metadata: { order: "1", note: "n".repeat(501) } }),
          path: "metadata.note"
        },
        {
          label: "a metadata value not a string",
          body: pixRequest({ metadata: { count: 3 } }),
          path: "metadata.count"
        },
        { label: "metadata not an object", body: pixRequest({ metadata: "order=1" }), path: "metadata" },
        { label: "expires_in 59", body: pixRequest({ expires_in: 59 }), path: "expires_in" },
        { label: "expires_in 2_592_001", body: pixRequest({ expires_in: 2_592_001 }), path: "expires_in" },
        { label: "expires_in a float", body: pixRequest({ expires_in: 3600.5 }), path: "expires_in" },
        {
          label: "expires_in on a bank_slip invoice",
          body: { ...withPayer(bankSlipAddress), method: "bank_slip", expires_in: 3600 },
          path: "expires_in"
        },
        {
          label: "expires_in on a credit_card invoice",
          body: pixRequest({ method: "credit_card", expires_in: 3600 }),
          path: "expires_in"
        },
        {
          label: "card on a pix invoice",
          body: pixRequest({
            card: {
              number: "4111111111111111",
              first_name: "Maria",
              last_name: "Souza",
              month: "12",
              year: "2030",
              security_code: "123"
            }
          }),
          path: "card"
        },
        { label: "due_date on a pix invoice", body: pixRequest({ due_date: "2030-01-10" }), path: "due_date" },
        {
          label: "external_ref of 256 characters",
          body: pixRequest({ external_ref: "r".repeat(256) }),
          path: "external_ref"
        }
      ])("answers 400 for $label", async ({ body, path }) => {
        await expectInvalid(body, path)
      })

      it.each([
        { label: "product_fisical TRUE", fisical: "TRUE", traceable: true },
        { label: "product_fisical 1", fisical: "1", traceable: true },
        { label: "product_fisical false", fisical: "false", traceable: false },
        { label: "product_fisical 0", fisical: "0", traceable: false }
      ])("accepts $label", async ({ fisical, traceable }) => {
        const reply = await expectCreated(pixRequest({ product_fisical: fisical }))
        expect(reply.body.traceable).toBe(traceable)
        expect(reply.body.items.every((entry: { tangible: boolean }) => entry.tangible === traceable)).toBe(true)
      })

      it.each([
        { label: "IPv4", ip: "203.0.113.7" },
        { label: "IPv6", ip: "2001:db8::1" },
        { label: "full IPv6", ip: "2001:0db8:0000:0000:0000:ff00:0042:8329" }
      ])("accepts a valid $label ip_payer and returns it as ip", async ({ ip }) => {
        const reply = await expectCreated(pixRequest({ ip_payer: ip }))
        expect(reply.body.ip).toBe(ip)
      })

      it('accepts postback_url "" and answers postbackUrl ""', async () => {
        const reply = await expectCreated(pixRequest({ postback_url: "" }))
        expect(reply.body.postbackUrl).toBe("")
      })

      it("accepts an https postback_url", async () => {
        const reply = await expectCreated(pixRequest({ postback_url: "https://merchant.example/hooks/fatura" }))
        expect(reply.body.postbackUrl).toBe("https://merchant.example/hooks/fatura")
      })

      it("accepts metadata with 50 keys and a value of 500 characters", async () => {
        const metadata = { ...manyKeys(49), note: "n".repeat(500) }
        const reply = await expectCreated(pixRequest({ metadata }))
        expect(reply.body.metadata).toEqual(metadata)
      })

      it.each([
        { label: "60", expires_in: 60 },
        { label: "2_592_000", expires_in: 2_592_000 }
      ])("accepts expires_in $label", async ({ expires_in }) => {
        await expectCreated(pixRequest({ expires_in }))
      })
    })

    describe("the body as a whole", () => {
      it("answers 400 invalid_request for malformed JSON, and stores nothing", async () => {
        const before = await stored()
        const reply = await suite.app.request("POST", "/api/v2/invoices", { key: suite.key, rawBody: "{bad" })
        expectInvalidBody(reply)
        expect(await stored()).toEqual(before)
      })

      it.each([
        { label: "a JSON array", rawBody: "[]" },
        { label: "a JSON string", rawBody: '"pix"' },
        { label: "JSON null", rawBody: "null" },
        { label: "an empty object", rawBody: "{}" }
      ])("answers 400 invalid_request for $label", async ({ rawBody }) => {
        const before = await stored()
        const reply = await suite.app.request("POST", "/api/v2/invoices", { key: suite.key, rawBody })
        expectInvalidBody(reply)
        expect(await stored()).toEqual(before)
      })

      it("reports one issue per problem, and the message starts with the first issue's path", async () => {
        const reply = await expectInvalid(
          {
            method: "boleto",
            total_price_cents: "a lot",
            payer: { name: "", cpf_cnpj: "529.982.247-24", email: "nope" },
            ip_payer: "999.1.1.1"
          },
          "method"
        )
        const paths: Array<string> = reply.body.issues.map((issue: { path: string }) => issue.path)
        expect(paths.length).toBeGreaterThanOrEqual(3)
        for (const path of ["method", "total_price_cents", "payer.name", "payer.cpf_cnpj", "payer.email", "ip_payer"]) {
          expect(paths).toContain(path)
        }
        expect(new Set(paths).size).toBe(paths.length)
        expect(reply.body.message.startsWith(paths[0])).toBe(true)
      })

      it("names the field and the problem in the message of a single issue", async () => {
        const reply = await expectInvalid(withPayer({ cpf_cnpj: "529.982.247-24" }), "payer.cpf_cnpj")
        expect(reply.body.issues).toHaveLength(1)
        expect(reply.body.message.startsWith("payer.cpf_cnpj")).toBe(true)
      })

      it("answers 400 with an issue per missing address field for a bank_slip without address", async () => {
        const reply = await expectInvalid(pixRequest({ method: "bank_slip" }), "payer.address_zip")
        const paths = reply.body.issues.map((issue: { path: string }) => issue.path)
        for (const field of ["address_zip", "address_line", "address_number", "address_city", "address_state"]) {
          expect(paths).toContain(`payer.${field}`)
        }
      })

      it("ignores unknown fields: a client cannot set status, amount, companyId or fees", async () => {
        const reply = await expectCreated(
          pixRequest({
            status: "paid",
            amount: 1,
            companyId: 999,
            fee: {},
            id: 1,
            paidAt: "2026-01-01T00:00:00.000000Z",
            refundedAmount: 12_345
          })
        )
        expect(reply.body.status).toBe("pending")
        expect(reply.body.amount).toBe(12_345)
        expect(reply.body.companyId).toBe(suite.companyId)
        expect(reply.body.paidAt).toBeNull()
        expect(reply.body.refundedAmount).toBe(0)
        expect(typeof reply.body.fee.estimatedFee).toBe("number")
        expect(reply.body.fee.estimatedFee).toBe(Math.round((12_345 * 1.99) / 100))
        expect(reply.body.fee.netAmount).toBe(12_345 - reply.body.fee.estimatedFee)
        expect(reply.body.metadata).toBeNull()

        // What is stored is what a later read shows: the same, unaffected invoice.
        const read = await suite.app.request("GET", `/api/v2/invoices?id=${reply.body.secureId}`, { key: suite.key })
        expect(read.status).toBe(200)
        expect(read.body).toEqual(reply.body)
        const [row] = await suite.app.query(
          `SELECT company_id::int AS company_id, status, amount::int AS amount, refunded_amount::int AS refunded,
                paid_at, metadata FROM invoices WHERE secure_id = '${reply.body.secureId}'`
        )
        expect(row).toEqual({
          company_id: suite.companyId,
          status: "pending",
          amount: 12_345,
          refunded: 0,
          paid_at: null,
          metadata: null
        })
      })
    })
  }
)
