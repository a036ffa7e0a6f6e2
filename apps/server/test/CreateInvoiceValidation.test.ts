// SPEC 3 and 4.1: what Create Invoices refuses (400 invalid_request with one dotted-path issue per problem,
// 422 for business rules), what it accepts, and that a refused request leaves nothing behind.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { pixRequest, type Reply, startApp, type TestApp } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

type Body = Record<string, unknown>

const basePayer = (): Body => ({ ...(pixRequest().payer as Body) })

/** A valid pix request whose payer has `changes` applied (`undefined` removes the field). */
const withPayer = (changes: Body): Body => {
  const payer = basePayer()
  for (const [field, value] of Object.entries(changes)) {
    if (value === undefined) delete payer[field]
    else payer[field] = value
  }
  return pixRequest({ payer })
}

/** A valid pix request without `field`. */
const without = (field: string): Body => {
  const body: Body = pixRequest()
  delete body[field]
  return body
}

const item = (name: string, quantity: number, unit_price: number) => ({ name, quantity, unit_price })

const bankSlipAddress = {
  address_zip: "01310-100",
  address_line: "Avenida Paulista",
  address_number: "1000",
  address_city: "São Paulo",
  address_state: "SP"
}

const manyKeys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`key${i}`, "v"]))

describe.each(testDatabases)("create invoice validation on $name", (database) => {
  let app: TestApp
  let key: string
  let companyId: number

  beforeAll(async () => {
    app = await startApp(database)
    const registered = await app.registerCompany()
    key = registered.secretKey
    companyId = registered.company.id
  })
  afterAll(() => app.stop())

  const create = (body: unknown) => app.request("POST", "/api/v2/invoices", { key, body })

  /** What a request may leave behind: invoices, their events and timeline, payers' client records. */
  const stored = async () => {
    const [invoices] = await app.query("SELECT count(*)::int AS n FROM invoices")
    const [events] = await app.query("SELECT count(*)::int AS n FROM events")
    const [clients] = await app.query("SELECT count(*)::int AS n FROM clients")
    return { invoices: invoices?.n, events: events?.n, clients: clients?.n }
  }

  const expectInvalidBody = (reply: Reply, path?: string) => {
    expect(reply.status).toBe(400)
    expect(reply.body.code).toBe("invalid_request")
    expect(typeof reply.body.message).toBe("string")
    expect(reply.body.message.length).toBeGreaterThan(0)
    expect(Array.isArray(reply.body.issues)).toBe(true)
    for (const issue of reply.body.issues) {
      expect(typeof issue.path).toBe("string")
      expect(typeof issue.message).toBe("string")
    }
    if (path !== undefined) expect(reply.body.issues.map((issue: { path: string }) => issue.path)).toContain(path)
  }

  /** Sends `body`, expects a 400 with an issue at `path`, and checks that nothing was stored. */
  const expectInvalid = async (body: unknown, path: string) => {
    const before = await stored()
    const reply = await create(body)
    expectInvalidBody(reply, path)
    expect(await stored()).toEqual(before)
    return reply
  }

  const expectUnprocessable = async (body: unknown, code: string) => {
    const before = await stored()
    const reply = await create(body)
    expect(reply.status).toBe(422)
    expect(reply.body.code).toBe(code)
    expect(typeof reply.body.message).toBe("string")
    expect(await stored()).toEqual(before)
    return reply
  }

  const expectCreated = async (body: unknown) => {
    const before = await stored()
    const reply = await create(body)
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    expect(reply.body.status).toBe("pending")
    expect(reply.body.companyId).toBe(companyId)
    const after = await stored()
    expect(after.invoices).toBe((before.invoices as number) + 1)
    return reply
  }

  it("accepts the valid base request", async () => {
    const reply = await expectCreated(pixRequest())
    expect(reply.body.amount).toBe(12_345)
  })

  describe("payer", () => {
    it.each([
      { label: "payer missing", body: without("payer"), path: "payer" },
      { label: "payer not an object", body: pixRequest({ payer: "Maria Souza" }), path: "payer" },
      { label: "payer.name missing", body: withPayer({ name: undefined }), path: "payer.name" },
      { label: "payer.name empty", body: withPayer({ name: "" }), path: "payer.name" },
      { label: "payer.name of 256 characters", body: withPayer({ name: "a".repeat(256) }), path: "payer.name" },
      { label: "payer.name of the wrong type (42)", body: withPayer({ name: 42 }), path: "payer.name" },
      { label: "payer.name null", body: withPayer({ name: null }), path: "payer.name" }
    ])("answers 400 for $label", async ({ body, path }) => {
      await expectInvalid(body, path)
    })

    it("accepts a payer.name of 255 characters", async () => {
      await expectCreated(withPayer({ name: "a".repeat(255) }))
    })

    it.each([
      { label: "missing", cpf_cnpj: undefined },
      { label: "a CPF with wrong check digits", cpf_cnpj: "529.982.247-24" },
      { label: "a CPF with wrong check digits, unformatted", cpf_cnpj: "52998224735" },
      { label: "a numeric CNPJ with wrong check digits", cpf_cnpj: "11.222.333/0001-80" },
      { label: "an alphanumeric CNPJ with wrong check digits", cpf_cnpj: "12.ABC.345/01DE-36" },
      { label: "10 digits", cpf_cnpj: "5299822472" },
      { label: "12 digits", cpf_cnpj: "529982247251" },
      { label: "15 digits", cpf_cnpj: "112223330001810" },
      { label: "letters in a CPF", cpf_cnpj: "529.982.24A-25" },
      { label: "a repeated digit", cpf_cnpj: "111.111.111-11" },
      { label: "empty", cpf_cnpj: "" },
      { label: "a number instead of a string", cpf_cnpj: 52_998_224_725 }
    ])("answers 400 for payer.cpf_cnpj $label", async ({ cpf_cnpj }) => {
      await expectInvalid(withPayer({ cpf_cnpj }), "payer.cpf_cnpj")
    })

    it.each([
      { label: "a formatted CPF", cpf_cnpj: "529.982.247-25", number: "52998224725", type: "cpf" },
      { label: "an unformatted CPF", cpf_cnpj: "52998224725", number: "52998224725", type: "cpf" },
      { label: "a formatted numeric CNPJ", cpf_cnpj: "11.222.333/0001-81", number: "11222333000181", type: "cnpj" },
      {
        label: "a valid alphanumeric CNPJ",
        cpf_cnpj: "12.ABC.345/01DE-35",
        number: "12ABC34501DE35",
        type: "cnpj"
      },
      {
        label: "a valid alphanumeric CNPJ, unformatted",
        cpf_cnpj: "12ABC34501DE35",
        number: "12ABC34501DE35",
        type: "cnpj"
      }
    ])("accepts payer.cpf_cnpj as $label", async ({ cpf_cnpj, number, type }) => {
      const reply = await expectCreated(withPayer({ cpf_cnpj }))
      expect(reply.body.customer.document).toEqual({ number, type })
    })

    it.each([
      { label: "missing", email: undefined },
      { label: "without @", email: "maria.example.com" },
      { label: "without a domain", email: "maria@" },
      { label: "with spaces", email: "maria souza@example.com" },
      { label: "empty", email: "" }
    ])("answers 400 for payer.email $label", async ({ email }) => {
      await expectInvalid(withPayer({ email }), "payer.email")
    })

    it.each([
      { label: "9 digits", phone: "119888877" },
      { label: "14 digits", phone: "55119888877766" },
      { label: "letters", phone: "11 9888A-7777" }
    ])("answers 400 for payer.phone with $label", async ({ phone }) => {
      await expectInvalid(withPayer({ phone }), "payer.phone")
    })

    it.each([
      { label: "a formatted 11-digit phone", phone: "(11) 98888-7777" },
      { label: "10 digits", phone: "1133334444" },
      { label: "13 digits with country code", phone: "+55 11 98888-7777" },
      { label: "no phone at all", phone: undefined }
    ])("accepts payer.phone as $label", async ({ phone }) => {
      await expectCreated(withPayer({ phone }))
    })

    it.each([
      { label: "7 digits", address_zip: "1310100" },
      { label: "9 digits", address_zip: "013101000" },
      { label: "letters", address_zip: "0131O-100" }
    ])("answers 400 for payer.address_zip with $label", async ({ address_zip }) => {
      await expectInvalid(withPayer({ address_zip }), "payer.address_zip")
    })

    it.each([
      { label: "XX", address_state: "XX" },
      { label: "a state name", address_state: "São Paulo" },
      { label: "empty", address_state: "" }
    ])("answers 400 for payer.address_state not a UF ($label)", async ({ address_state }) => {
      await expectInvalid(withPayer({ address_state }), "payer.address_state")
    })

    it("accepts a full valid address", async () => {
      const reply = await expectCreated(withPayer(bankSlipAddress))
      expect(reply.body.customer.address.state).toBe("SP")
      expect(reply.body.customer.address.zipCode).toBe("01310100")
    })
  })

  describe("method", () => {
    it.each([
      { label: "missing", body: without("method") },
      { label: "unknown (boleto)", body: pixRequest({ method: "boleto" }) },
      { label: "of the wrong case (PIX)", body: pixRequest({ method: "PIX" }) },
      { label: "a number", body: pixRequest({ method: 1 }) }
    ])("answers 400 for method $label", async ({ body }) => {
      await expectInvalid(body, "method")
    })
  })

  describe("total_price_cents", () => {
    it.each([
      { label: "missing", body: without("total_price_cents") },
      { label: "a string", body: pixRequest({ total_price_cents: "12345" }) },
      { label: "a float (12.5)", body: pixRequest({ total_price_cents: 12.5 }) },
      { label: "a fraction above the range (2^51 + 0.5)", body: pixRequest({ total_price_cents: 2 ** 51 + 0.5 }) },
      { label: "null", body: pixRequest({ total_price_cents: null }) }
    ])("answers 400 for total_price_cents $label", async ({ body }) => {
      await expectInvalid(body, "total_price_cents")
    })

    it.each([
      { label: "99", total: 99 },
      { label: "100_000_001", total: 100_000_001 },
      { label: "0", total: 0 },
      { label: "-100", total: -100 },
      { label: "2^53", total: 2 ** 53 },
      { label: "-(2^53)", total: -(2 ** 53) },
      { label: "1e21", total: 1e21 }
    ])("answers 422 amount_out_of_range for $label", async ({ total }) => {
      await expectUnprocessable(pixRequest({ total_price_cents: total }), "amount_out_of_range")
    })

    /** A valid pix request whose total_price_cents is written as `literal` in the JSON text. */
    const withTotalLiteral = (literal: string) =>
      JSON.stringify(pixRequest({ total_price_cents: 0 })).replace(
        '"total_price_cents":0',
        `"total_price_cents":${literal}`
      )

    // Integers as a client's JSON encoder may write them: beyond 2^53, or in exponent form.
    it.each(["9007199254740993", "1e21", "1E+21", "100000000000000000000000000"])(
      "answers 422 amount_out_of_range for the JSON number %s",
      async (literal) => {
        const before = await stored()
        const reply = await app.request("POST", "/api/v2/invoices", { key, rawBody: withTotalLiteral(literal) })
        expect(reply.status, JSON.stringify(reply.body)).toBe(422)
        expect(reply.body.code).toBe("amount_out_of_range")
        expect(await stored()).toEqual(before)
      }
    )

    it("answers 400 for a JSON number beyond any double (1e400), which the JSON reader cannot hold", async () => {
      const before = await stored()
      const reply = await app.request("POST", "/api/v2/invoices", { key, rawBody: withTotalLiteral("1e400") })
      expectInvalidBody(reply, "total_price_cents")
      expect(await stored()).toEqual(before)
    })

    it.each([
      { label: "100", total: 100 },
      { label: "100_000_000", total: 100_000_000 }
    ])("accepts the bound $label", async ({ total }) => {
      const reply = await expectCreated(pixRequest({ total_price_cents: total }))
      expect(reply.body.amount).toBe(total)
    })
  })

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
      { label: "a metadata value not a string", body: pixRequest({ metadata: { count: 3 } }), path: "metadata.count" },
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
      const reply = await app.request("POST", "/api/v2/invoices", { key, rawBody: "{bad" })
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
      const reply = await app.request("POST", "/api/v2/invoices", { key, rawBody })
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
      expect(reply.body.companyId).toBe(companyId)
      expect(reply.body.paidAt).toBeNull()
      expect(reply.body.refundedAmount).toBe(0)
      expect(typeof reply.body.fee.estimatedFee).toBe("number")
      expect(reply.body.fee.estimatedFee).toBe(Math.round((12_345 * 1.99) / 100))
      expect(reply.body.fee.netAmount).toBe(12_345 - reply.body.fee.estimatedFee)
      expect(reply.body.metadata).toBeNull()

      // What is stored is what a later read shows: the same, unaffected invoice.
      const read = await app.request("GET", `/api/v2/invoices?id=${reply.body.secureId}`, { key })
      expect(read.status).toBe(200)
      expect(read.body).toEqual(reply.body)
      const [row] = await app.query(
        `SELECT company_id::int AS company_id, status, amount::int AS amount, refunded_amount::int AS refunded,
                paid_at, metadata FROM invoices WHERE secure_id = '${reply.body.secureId}'`
      )
      expect(row).toEqual({
        company_id: companyId,
        status: "pending",
        amount: 12_345,
        refunded: 0,
        paid_at: null,
        metadata: null
      })
    })
  })
})
