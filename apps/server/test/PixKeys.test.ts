// SPEC 6.1 and 12.2: a company's pix key is a key of one of the five DICT types, kept in its canonical form, so that
// it always fits field 26 of a BR Code; a company whose stored key predates that check gets a 422 on pix
// invoices, not a 500, and keeps its other methods.
import { hasError, parsePix } from "pix-utils"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { boletoRequest, cardRequest, pixRequest, startApp, type TestApp } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

/** The longest email DICT takes as a key: 77 characters, which fill field 26 to its 99. */
const longestEmail = `${"a".repeat(64)}@loja.exam.br`
const tooLongEmail = `${"a".repeat(65)}@loja.exam.br`

const readPix = (qrCode: string) => {
  const pix = parsePix(qrCode)
  if (hasError(pix)) throw new Error(`pix-utils rejects ${qrCode}: ${JSON.stringify(pix)}`)
  if (pix.type !== "STATIC") throw new Error(`pix-utils reads a ${pix.type} pix`)
  return pix
}

describe.each(testDatabases)("pix keys on $name", (database) => {
  let app: TestApp

  beforeAll(async () => {
    app = await startApp(database)
  })
  afterAll(() => app.stop())

  const companiesWithKey = async (pixKey: string) => {
    const rows = await app.query(
      `SELECT count(*)::int AS n FROM companies WHERE pix_key = '${pixKey.replace(/'/g, "''")}'`
    )
    return rows[0]?.n
  }

  const createPix = (key: string) => app.request("POST", "/api/v2/invoices", { key, body: pixRequest() })

  it.each([
    { label: "a formatted CPF", given: "529.982.247-25", key: "52998224725" },
    { label: "a formatted CNPJ", given: "11.222.333/0001-81", key: "11222333000181" },
    { label: "an alphanumeric CNPJ", given: "12.abc.345/01de-35", key: "12ABC34501DE35" },
    { label: "an email in capitals", given: " Pix@Loja.Example ", key: "pix@loja.example" },
    { label: "the longest email", given: longestEmail, key: longestEmail },
    { label: "a formatted mobile phone", given: "+55 (11) 98888-7777", key: "+5511988887777" },
    { label: "a landline phone", given: "+551133334444", key: "+551133334444" },
    {
      label: "a random key in capitals",
      given: "123E4567-E89B-42D3-A456-426614174000",
      key: "123e4567-e89b-42d3-a456-426614174000"
    }
  ])("registers $label in its canonical form and writes it in every BR Code", async ({ given, key }) => {
    const registered = await app.registerCompany({ pixKey: given })
    expect(registered.company.pixKey).toBe(key)
    const reply = await createPix(registered.secretKey)
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    const qrCode: string = reply.body.pix.qrCode
    expect(qrCode).toContain(`01${String(key.length).padStart(2, "0")}${key}`)
    expect(readPix(qrCode).pixKey).toBe(key)
  })

  it.each([
    { label: "empty", given: "" },
    { label: "not a key of any type", given: "minha chave" },
    { label: "a CPF with wrong check digits", given: "529.982.247-24" },
    { label: "a CNPJ with wrong check digits", given: "11.222.333/0001-80" },
    { label: "an email of 78 characters", given: tooLongEmail },
    { label: "an email with an accent", given: "joão@loja.example" },
    { label: "an email without a domain", given: "pix@" },
    { label: "a phone outside Brazil", given: "+1 415 555 0100" },
    { label: "a phone with 9 digits", given: "+55 11 8888-777" },
    { label: "a phone with 12 digits", given: "+55 11 98888-77770" },
    { label: "a random key without hyphens", given: "123e4567e89b42d3a456426614174000" },
    { label: "a key of 200 characters", given: "k".repeat(200) }
  ])("refuses to register a company whose pix key is $label", async ({ given }) => {
    await expect(app.registerCompany({ pixKey: given })).rejects.toMatchObject({ _tag: "InvalidPixKey" })
    expect(await companiesWithKey(given)).toBe(0)
  })

  it.each([
    { label: "longer than 77 characters", email: tooLongEmail },
    { label: "not ASCII", email: "joão@padaria.example" }
  ])("refuses a company without a pix key whose email, $label, cannot be one", async ({ email }) => {
    await expect(app.registerCompany({ email })).rejects.toMatchObject({ _tag: "PixKeyRequired" })
    expect(await companiesWithKey(email)).toBe(0)
    // With a key of its own, the same email is only the contact address.
    const registered = await app.registerCompany({ email, pixKey: "pix@padaria.example" })
    expect((await createPix(registered.secretKey)).status).toBe(201)
  })

  it("takes the email as the key by default, in its canonical form", async () => {
    const registered = await app.registerCompany({ email: "Contato@Padaria.Example" })
    expect(registered.company.pixKey).toBe("contato@padaria.example")
    expect(readPix((await createPix(registered.secretKey)).body.pix.qrCode).pixKey).toBe("contato@padaria.example")
  })

  it.each([
    { label: "an email of 78 characters", stored: tooLongEmail },
    { label: "an email with an accent", stored: "joão@padaria.example" },
    { label: "a key of 200 characters", stored: "k".repeat(200) },
    { label: "a CPF with wrong check digits", stored: "52998224724" }
  ])(
    "answers 422 to pix invoices of a company whose stored key, $label, predates the check, and serves its other methods",
    async ({ stored }) => {
      const registered = await app.registerCompany()
      // Written as an older version of the service would have stored it.
      await app.query(`UPDATE companies SET pix_key = '${stored}' WHERE id = ${registered.company.id}`)
      const [before] = await app.query("SELECT count(*)::int AS n FROM invoices")
      const reply = await createPix(registered.secretKey)
      expect(reply.status, JSON.stringify(reply.body)).toBe(422)
      expect(reply.body.code).toBe("unprocessable")
      expect(reply.body.message).toMatch(/pix key/)
      const [after] = await app.query("SELECT count(*)::int AS n FROM invoices")
      expect(after?.n).toBe(before?.n)
      const card = await app.request("POST", "/api/v2/invoices", { key: registered.secretKey, body: cardRequest() })
      expect(card.status).toBe(201)
      const boleto = await app.request("POST", "/api/v2/invoices", { key: registered.secretKey, body: boletoRequest() })
      expect(boleto.status).toBe(201)
    }
  )

  it("writes a stored key that predates the check in its canonical form when it is a valid key", async () => {
    const registered = await app.registerCompany()
    await app.query(`UPDATE companies SET pix_key = '529.982.247-25' WHERE id = ${registered.company.id}`)
    const reply = await createPix(registered.secretKey)
    expect(reply.status).toBe(201)
    expect(readPix(reply.body.pix.qrCode).pixKey).toBe("52998224725")
  })
})
