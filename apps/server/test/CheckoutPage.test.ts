// SPEC 11.3: the hosted checkout page as served — what it shows for each method and outcome, behind the checkout
// token, with nothing personal or secret in its source. Its behaviour in a browser is the browser suite's.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { checkedFetch } from "./support/Contract.js"
import { inMemory } from "./support/InMemoryServices.js"
import { boletoRequest, cardRequest, pixRequest, startApp, type TestApp } from "./support/TestApp.js"

const payer = {
  name: "Beatriz Nogueira",
  cpf_cnpj: "529.982.247-25",
  email: "beatriz@private.example",
  phone: "(21) 98765-4321"
}

/** Everything personal or secret that no page may carry, in the forms it could appear in. */
const forbidden = (secretKey: string, webhookSecret: string) => [
  secretKey,
  webhookSecret,
  "sk_test_",
  "sk_live_",
  "whsec_",
  "529.982.247-25",
  "52998224725",
  "beatriz@private.example",
  "98765-4321",
  "987654321",
  "11.444.777/0001-61",
  "11444777000161",
  "financeiro@acao.example"
]

interface Created {
  readonly secureId: string
  readonly invoice: { readonly token_checkout: string }
}

describe.each([inMemory])("the hosted checkout page on $name", (database) => {
  let app: TestApp
  let key: string
  let webhookSecret: string

  beforeAll(async () => {
    app = await startApp(database)
    const company = await app.registerCompany({ name: "Café Aurora" })
    key = company.secretKey
    webhookSecret = company.webhookSecret
  })
  afterAll(() => app.stop())

  const create = async (body: unknown): Promise<Created> => {
    const reply = await app.request("POST", "/api/v2/invoices", { key, body })
    expect(reply.status).toBe(201)
    return reply.body
  }
  const page = (created: Created, token: string = created.invoice.token_checkout) =>
    checkedFetch(`${app.baseUrl}/checkout/${created.secureId}?token=${encodeURIComponent(token)}`)

  const expectClean = (html: string) => {
    for (const text of forbidden(key, webhookSecret)) expect(html).not.toContain(text)
  }

  it("shows a pix invoice: merchant, items, total in reais, the QR image and the copy-and-paste code", async () => {
    const created = await create(
      pixRequest({
        payer,
        total_price_cents: 123_456,
        items: [{ name: "Café especial", quantity: 3, unit_price: 41_152 }]
      })
    )
    const response = await page(created)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8")
    const html = await response.text()
    expect(html).toContain('<html lang="pt-BR">')
    expect(html).toContain("Café Aurora")
    expect(html).toContain("3 × Café especial")
    expect(html).toContain("R$ 1.234,56")
    expect(html).toContain("Aguardando pagamento")
    expect(html).toMatch(/<img id="pix-qr" class="qr" src="data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+"/)
    const full = (await app.request("GET", `/api/v2/invoices?id=${created.secureId}`, { key })).body
    expect(html).toContain(`>${full.pix.qrCode.replaceAll("&", "&amp;")}</textarea>`)
    expect(html).toContain("Copiar código Pix")
    expect(html).toContain('id="pix-countdown"')
    expectClean(html)
  })

  it("sends headers that keep the token in the page and the page to itself", async () => {
    const created = await create(pixRequest())
    const response = await page(created)
    const html = await response.text()
    const nonce = /<script nonce="([^"]+)">/.exec(html)?.[1]
    expect(nonce).toBeDefined()
    expect(response.headers.get("content-security-policy")).toBe(
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src data:; ` +
        "connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'"
    )
    expect(response.headers.get("referrer-policy")).toBe("no-referrer")
    expect(response.headers.get("cache-control")).toBe("no-store")
    const again = await (await page(created)).text()
    expect(/<script nonce="([^"]+)">/.exec(again)?.[1]).not.toBe(nonce)
  })

  it("answers a wrong, missing or foreign token and an unknown invoice with the same 404 page", async () => {
    const created = await create(pixRequest())
    const other = await create(pixRequest())
    const replies = await Promise.all([
      page(created, "wrong"),
      checkedFetch(`${app.baseUrl}/checkout/${created.secureId}`),
      page(created, other.invoice.token_checkout),
      page({ ...created, secureId: crypto.randomUUID() }),
      page({ ...created, secureId: "not-a-uuid" })
    ])
    const bodies = await Promise.all(replies.map((reply) => reply.text()))
    for (const reply of replies) expect(reply.status).toBe(404)
    const withoutNonce = bodies.map((body) => body.replace(/nonce="[^"]+"/g, ""))
    expect(new Set(withoutNonce).size).toBe(1)
    expect(withoutNonce[0]).toContain("Cobrança não encontrada")
    expect(withoutNonce[0]).not.toContain(created.secureId)
  })

  it("shows a boleto's line, due date and a PDF link that downloads the slip", async () => {
    const due = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10)
    const created = await create(boletoRequest({ due_date: due }))
    const full = (await app.request("GET", `/api/v2/invoices?id=${created.secureId}`, { key })).body
    const html = await (await page(created)).text()
    const line: string = full.boleto.digitable_line
    const formatted = `${line.slice(0, 5)}.${line.slice(5, 10)} ${line.slice(10, 15)}.${line.slice(15, 21)} ${line.slice(21, 26)}.${line.slice(26, 32)} ${line[32]} ${line.slice(33)}`
    expect(html).toContain(`>${formatted}</textarea>`)
    expect(html).toContain(`${due.slice(8, 10)}/${due.slice(5, 7)}/${due.slice(0, 4)}`)
    const href = /<a id="boleto-pdf" class="button" href="([^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&")
    expect(href).toBe(`/api/v2/public/invoices/${created.secureId}/boleto.pdf?token=${created.invoice.token_checkout}`)
    const pdf = await checkedFetch(`${app.baseUrl}${href}`)
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get("content-type")).toBe("application/pdf")
    expect(html).not.toContain('id="pix-qr"')
    expectClean(html)
  })

  it("offers a pending card invoice a form with the installments it allows and their amounts", async () => {
    const created = await create(pixRequest({ method: "credit_card", total_price_cents: 1_201, payer }))
    const html = await (await page(created)).text()
    expect(html).toContain('<form id="card-form"')
    const options = [...html.matchAll(/<option value="(\d+)">([^<]+)<\/option>/g)].map((match) => [match[1], match[2]])
    // R$ 12,01 splits in two parts of at least R$ 5,00 (6,01 + 6,00), not in three.
    expect(options).toEqual([
      ["1", "1x de R$ 12,01 (à vista)"],
      ["2", "2x de R$ 6,01 sem juros"]
    ])
    expect(html).toContain("Pagar R$ 12,01")
    // Created without items: the placeholder item is not listed, the total says it all.
    expect(html).not.toContain('<ul class="items">')
    expectClean(html)
  })

  it("embeds the company's public token, the one exchange-token hands out, and never a secret key", async () => {
    const company = await app.registerCompany({ name: "Livraria Sol" })
    const created = (
      await app.request("POST", "/api/v2/invoices", {
        key: company.secretKey,
        body: pixRequest({ method: "credit_card" })
      })
    ).body as Created
    const html = await (await page(created)).text()
    const config = JSON.parse(/<script id="checkout-config" type="application\/json">(.*?)<\/script>/s.exec(html)![1]!)
    expect(config.publicToken).toMatch(/^pk_test_[0-9A-Za-z]{32}$/)
    expect(config.sandboxThreeDSecure).toBe(false)
    const exchanged = await app.request("POST", "/api/v2/exchange-token", { key: company.secretKey })
    expect(exchanged.body.public_token).toBe(config.publicToken)
    const after = await (await page(created)).text()
    expect(after).toContain(`"publicToken":"${config.publicToken}"`)
    expect(after).toContain('"sandboxThreeDSecure":true')
    expect(after).not.toContain(company.secretKey)
  })

  it("shows the outcome instead of a payment form once the invoice left pending", async () => {
    const paid = await create(cardRequest({}, { payer }))
    const paidHtml = await (await page(paid)).text()
    expect(paidHtml).toContain("Pagamento confirmado")
    expect(paidHtml).toContain("Cartão VISA terminado em 1111")
    expect(paidHtml).toContain("Sem autenticação 3-D Secure.")
    expect(paidHtml).not.toContain('<form id="card-form"')
    expect(paidHtml).not.toContain("4111111111111111")

    const refused = await create(cardRequest({ number: "4000 0000 0000 0002" }, { payer }))
    const refusedHtml = await (await page(refused)).text()
    expect(refusedHtml).toContain("Pagamento recusado")
    expect(refusedHtml).toContain("O cartão foi recusado pelo banco emissor.")

    const expiring = await create(pixRequest())
    await app.request("POST", "/api/v2/sandbox/invoices/expire", { key, body: { id: expiring.secureId } })
    const expiredHtml = await (await page(expiring)).text()
    expect(expiredHtml).toContain("Esta cobrança expirou")
    expect(expiredHtml).not.toContain('id="pix-qr"')
  })

  it("escapes what the merchant wrote, so an item name cannot run script in the payer's browser", async () => {
    const created = await create(
      pixRequest({
        total_price_cents: 1_000,
        items: [{ name: '<script>alert("x")</script></textarea>', quantity: 1, unit_price: 1_000 }]
      })
    )
    const html = await (await page(created)).text()
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;/textarea&gt;")
    expect(html).not.toContain('<script>alert("x")')
  })
})
