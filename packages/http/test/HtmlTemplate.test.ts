// The checkout page's files (assets/checkout/) as the server puts them together: biome lints each file, these check
// what comes of them — every slot filled once and escaped for where it stands, the inline script one that parses,
// the data the script reads JSON that cannot end its element.
import { Script } from "node:vm"
import { Cents, type Invoice } from "@fatura/domain"
import { describe, expect, it } from "vitest"
import * as CheckoutPage from "../src/CheckoutPage.js"
import * as HtmlTemplate from "../src/HtmlTemplate.js"

const hostile = '</script><script>alert("x")</script><!-- {{nonce}}'

/** What `render` reads of a pending card invoice; the rest of an invoice is not on the page. */
const pendingCard = {
  secureId: "0b1e6f0e-8f6c-4a43-9d2b-3c2f4f6a7b8c",
  mode: "test",
  method: "credit_card",
  status: "pending",
  amount: Cents.make(1_201),
  installments: 1,
  paidAt: null,
  refundedAmount: Cents.make(0),
  refusedReason: null,
  items: [{ title: hostile, quantity: 1, unitPrice: 1_201 }],
  pix: null,
  boleto: null,
  card: null
} as unknown as Invoice.Invoice

const page = CheckoutPage.render({
  invoice: pendingCard,
  merchantName: hostile,
  publicToken: "pk_test_x",
  checkoutToken: hostile,
  sandboxThreeDSecure: true,
  pixQrImage: null,
  nonce: "bm9uY2U="
})

describe("the checkout page from its files", () => {
  it("fills every slot, and the nonce where the style and the script stand", () => {
    // The hostile text's own "{{nonce}}" stays as it was written; nothing else is left of a slot.
    expect(page.replaceAll("{{nonce}}", "")).not.toContain("{{")
    expect(page).not.toContain("data-slot")
    expect(page).toContain('<style nonce="bm9uY2U=">\n/* The checkout page\'s style')
    expect(page.match(/<script nonce="bm9uY2U=">/g)).toHaveLength(1)
    expect(page).toContain('<form id="card-form"')
    expect(page).toContain('<option value="2">2x de R$ 6,01 sem juros</option>')
  })

  it("puts a script inline that parses", () => {
    const script = /<script nonce="[^"]+">([\s\S]*?)<\/script>/.exec(page)?.[1] ?? ""
    expect(script).toContain('document.getElementById("checkout-config")')
    expect(() => new Script(script)).not.toThrow()
  })

  it("escapes text for the element it stands in, and the script's data for a script", () => {
    expect(page).not.toContain('<script>alert("x")')
    expect(page).toContain('<h1 id="merchant">&lt;/script&gt;&lt;script&gt;alert(&quot;x&quot;)')
    const json = /<script id="checkout-config" type="application\/json">(.*?)<\/script>/s.exec(page)?.[1] ?? ""
    expect(json).not.toMatch(/<\/?script|<!--/i)
    expect(JSON.parse(json)).toMatchObject({ checkoutToken: hostile, sandboxThreeDSecure: true, status: "pending" })
  })

  it("writes a message page with the style and no script", () => {
    const message = CheckoutPage.message("bm9uY2U=", "Título <b>", "Texto & mais")
    expect(message).toContain("<title>Título &lt;b&gt;</title>")
    expect(message).toContain("<p>Texto &amp; mais</p>")
    expect(message).toContain('<style nonce="bm9uY2U=">')
    expect(message).not.toContain("<script")
  })
})

describe("HtmlTemplate", () => {
  it("fills in one pass: a value that looks like a slot stays text", () => {
    const template = HtmlTemplate.make("test", "<p>{{a}}</p><p>{{b}}</p>", ["a", "b"])
    expect(template.fill({ a: "{{b}}", b: HtmlTemplate.markup("<i>b</i>") })).toBe("<p>{{b}}</p><p><i>b</i></p>")
  })

  it("refuses a template whose slots are not the ones named", () => {
    expect(() => HtmlTemplate.make("test", "<p>{{a}}{{c}}</p>", ["a", "b"])).toThrow(
      'test: slots {"unknown":["c"],"missing":["b"]}'
    )
  })

  it("writes JSON that no script element ends", () => {
    const { markup } = HtmlTemplate.scriptJson({ text: "</script><!--\u2028" })
    expect(markup).toBe('{"text":"\\u003c/script>\\u003c!--\\u2028"}')
  })
})
