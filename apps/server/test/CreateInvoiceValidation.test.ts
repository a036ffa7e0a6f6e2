// SPEC 3 and 4.1: what Create Invoices refuses (400 invalid_request with one dotted-path issue per problem,
// 422 for business rules), what it accepts, and that a refused request leaves nothing behind: the payer, the method
// and the total. Items, optional fields and the body as a whole are CreateInvoiceBodyValidation.test.ts's.
import { describe, expect, it } from "vitest"
import { bankSlipAddress, createValidation, without, withPayer } from "./support/CreateValidation.js"
import { appWithCompany } from "./support/SuiteServers.js"
import { pixRequest } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

describe.each(testDatabases)("create invoice validation on $name", (database) => {
  const suite = appWithCompany(database)
  const { stored, expectInvalidBody, expectInvalid, expectUnprocessable, expectCreated } = createValidation(suite)

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
        const reply = await suite.app.request("POST", "/api/v2/invoices", {
          key: suite.key,
          rawBody: withTotalLiteral(literal)
        })
        expect(reply.status, JSON.stringify(reply.body)).toBe(422)
        expect(reply.body.code).toBe("amount_out_of_range")
        expect(await stored()).toEqual(before)
      }
    )

    it("answers 400 for a JSON number beyond any double (1e400), which the JSON reader cannot hold", async () => {
      const before = await stored()
      const reply = await suite.app.request("POST", "/api/v2/invoices", {
        key: suite.key,
        rawBody: withTotalLiteral("1e400")
      })
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
})
