// SPEC 4.1 (bank_slip), 4.7 (boleto.pdf), 5.1 (`boleto`), 6.2: FEBRABAN bank slips and their PDF.
import { Boleto } from "@fatura/domain"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { checkedFetch } from "./support/Contract.js"
import { boletoRequest, startApp, type TestApp } from "./support/TestApp.js"
import { testDatabases } from "./support/TestDatabases.js"

const saoPauloToday = () =>
  new Intl.DateTimeFormat("en-CA", {
    timeZone: "America/Sao_Paulo",
    year: "numeric",
    month: "2-digit",
    day: "2-digit"
  }).format(new Date())

const plusDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

describe.each(testDatabases)("bank slip invoices on $name", (database) => {
  let app: TestApp
  let key: string
  let companyId: number

  beforeAll(async () => {
    app = await startApp(database)
    const registered = await app.registerCompany({ name: "Distribuidora Ipê Ltda" })
    key = registered.secretKey
    companyId = registered.company.id
  })
  afterAll(() => app.stop())

  it("creates a pending slip whose barcode and line carry the amount, due date and our number", async () => {
    const reply = await app.request("POST", "/api/v2/invoices", { key, body: boletoRequest() })
    expect(reply.status).toBe(201)
    const invoice = reply.body
    expect(invoice).toMatchObject({ status: "pending", paymentMethod: "bank_slip", installments: 1, card: null })
    expect(invoice.invoice).toMatchObject({ is_bank_slip: true, is_pix: false, qr_code_pix: "" })
    expect(invoice.pix).toEqual({ qrCode: "" })
    const boleto = invoice.boleto
    expect(boleto.barcode).toMatch(/^\d{44}$/)
    expect(boleto.digitable_line).toMatch(/^\d{47}$/)
    expect(boleto.bank_code).toBe("001")
    expect(boleto.due_date).toBe(plusDays(saoPauloToday(), 3))
    expect(Boleto.isValidBarcode(boleto.barcode)).toBe(true)
    expect(Boleto.isValidDigitableLine(boleto.digitable_line)).toBe(true)
    expect(Boleto.digitableLine(boleto.barcode)).toBe(boleto.digitable_line)
    expect(boleto.barcode.slice(0, 4)).toBe("0019")
    expect(boleto.barcode.slice(5, 9)).toBe(String(Boleto.dueDateFactor(boleto.due_date)))
    expect(boleto.barcode.slice(9, 19)).toBe("0000123456")
    expect(BigInt(Boleto.ourNumberOf(boleto.barcode.slice(19)))).toBe(BigInt(boleto.our_number))
    expect(boleto.url).toBe(
      `http://fatura.test/api/v2/public/invoices/${invoice.secureId}/boleto.pdf?token=${invoice.invoice.token_checkout}`
    )
    expect(invoice.fee).toEqual({ estimatedFee: 349, fixedAmount: 349, netAmount: 123_107, spreadPercentage: 0 })
  })

  it("gives every slip its own our number", async () => {
    const replies = await Promise.all(
      [1, 2, 3].map(() => app.request("POST", "/api/v2/invoices", { key, body: boletoRequest() }))
    )
    expect(new Set(replies.map((reply) => reply.body.boleto.our_number)).size).toBe(3)
  })

  it("takes a due date from today to today + 365 days, in São Paulo", async () => {
    const today = saoPauloToday()
    for (const dueDate of [today, plusDays(today, 30), plusDays(today, 365)]) {
      const reply = await app.request("POST", "/api/v2/invoices", { key, body: boletoRequest({ due_date: dueDate }) })
      expect(reply.status).toBe(201)
      expect(reply.body.boleto.due_date).toBe(dueDate)
      expect(reply.body.boleto.barcode.slice(5, 9)).toBe(String(Boleto.dueDateFactor(dueDate)))
    }
    for (const dueDate of [plusDays(today, -1), plusDays(today, 366)]) {
      const reply = await app.request("POST", "/api/v2/invoices", { key, body: boletoRequest({ due_date: dueDate }) })
      expect(reply.status).toBe(400)
      expect(reply.body.issues).toEqual([expect.objectContaining({ path: "due_date" })])
    }
  })

  it("refuses a due date that is no day of the calendar with 400 naming due_date, even inside the window", async () => {
    // Each is written between today and today + 365 as text, so only a calendar check can refuse it.
    const today = saoPauloToday()
    const [year, month] = today.split("-").map(Number) as [number, number]
    const monthAfter = (months: number) => {
      const index = month - 1 + months
      return `${year + Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`
    }
    const thirtyDayMonth = [0, 1, 2, 3, 4, 5].map(monthAfter).find((m) => ["04", "06", "09", "11"].includes(m.slice(5)))
    const february = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map(monthAfter).find((m) => m.endsWith("-02"))
    const impossible = [
      `${year}-13-01`,
      `${year}-19-01`,
      `${thirtyDayMonth}-31`,
      `${february}-30`,
      `${february}-31`,
      `${monthAfter(1)}-00`,
      `${monthAfter(1)}-32`
    ]
    const invoiceCount = async () => (await app.query("SELECT count(*)::int AS n FROM invoices"))[0]?.n
    const before = await invoiceCount()
    for (const dueDate of impossible) {
      expect(dueDate > today && dueDate < plusDays(today, 365), dueDate).toBe(true)
      const reply = await app.request("POST", "/api/v2/invoices", { key, body: boletoRequest({ due_date: dueDate }) })
      expect(reply.status, `${dueDate}: ${JSON.stringify(reply.body)}`).toBe(400)
      expect(reply.body.code).toBe("invalid_request")
      expect(reply.body.issues).toEqual([expect.objectContaining({ path: "due_date" })])
    }
    expect(await invoiceCount()).toBe(before)
  })

  it("serves the slip as a PDF to whoever holds the checkout token, and to nobody else", async () => {
    const created = await app.request("POST", "/api/v2/invoices", { key, body: boletoRequest() })
    const path = new URL(created.body.boleto.url).pathname
    const token = created.body.invoice.token_checkout
    const pdf = await checkedFetch(`${app.baseUrl}${path}?token=${token}`)
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get("content-type")).toBe("application/pdf")
    const bytes = new Uint8Array(await pdf.arrayBuffer())
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-")

    for (const wrong of [`${token}x`, "", token.slice(1)]) {
      expect((await checkedFetch(`${app.baseUrl}${path}?token=${wrong}`)).status).toBe(404)
    }
    expect((await checkedFetch(`${app.baseUrl}${path}`)).status).toBe(404)
    const unknown = path.replace(created.body.secureId, crypto.randomUUID())
    expect((await checkedFetch(`${app.baseUrl}${unknown}?token=${token}`)).status).toBe(404)
  })

  it("has no PDF for a pix invoice", async () => {
    const pix = await app.request("POST", "/api/v2/invoices", {
      key,
      body: { ...boletoRequest(), method: "pix" }
    })
    const pdf = await checkedFetch(
      `${app.baseUrl}/api/v2/public/invoices/${pix.body.secureId}/boleto.pdf?token=${pix.body.invoice.token_checkout}`
    )
    expect(pdf.status).toBe(404)
  })

  it("answers 403 when the company is blocked for bank slips", async () => {
    const registered = await app.registerCompany()
    await app.setBlock(registered.company.id, "bank_slip", true)
    const blocked = await app.request("POST", "/api/v2/invoices", { key: registered.secretKey, body: boletoRequest() })
    expect(blocked.status).toBe(403)
    const pix = await app.request("POST", "/api/v2/invoices", {
      key: registered.secretKey,
      body: { ...boletoRequest(), method: "pix" }
    })
    expect(pix.status).toBe(201)
    expect(companyId).toBeGreaterThan(0)
  })
})
