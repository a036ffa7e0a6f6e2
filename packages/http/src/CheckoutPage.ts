// The hosted checkout page (SPEC 11.3) as one self-contained HTML document: inline style and script under a
// per-response nonce, the pix QR code as an inline image, nothing fetched from anywhere but this server.
import { Boleto, Card, Cents, Invoice, type InvoiceStatus, Timestamp } from "@fatura/domain"
import * as Html from "./Html.js"

export interface CheckoutView {
  readonly invoice: Invoice.Invoice
  readonly merchantName: string
  /** The company's public token for the invoice's mode: what the card form tokenizes with. */
  readonly publicToken: string
  readonly checkoutToken: string
  /**
   * Whether the card form runs the sandbox's stand-in for the issuer's 3-D Secure challenge: test invoices of a
   * company that activated 3-D Secure, whose card payments must carry a result (SPEC 6.3).
   */
  readonly sandboxThreeDSecure: boolean
  /** The pix QR code as an image (a `data:` URL), when the invoice is a pending pix. */
  readonly pixQrImage: string | null
  readonly nonce: string
}

/** JSON that is safe inside a `<script>` element: nothing in it can close the element or open a comment. */
const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029")

const statusLabels: Record<InvoiceStatus.InvoiceStatus, string> = {
  pending: "Aguardando pagamento",
  paid: "Pago",
  partially_refunded: "Estornado parcialmente",
  refunded: "Estornado",
  expired: "Expirado",
  refused: "Recusado",
  chargedback: "Contestado"
}

const refusalLabels: Record<string, string> = {
  card_declined: "O cartão foi recusado pelo banco emissor.",
  insufficient_funds: "Saldo ou limite insuficiente.",
  expired_card: "O cartão está vencido.",
  authentication_required: "O banco exigiu a autenticação 3-D Secure, que não foi concluída.",
  processing_error: "Erro no processamento do cartão."
}

/** The refusal of a card payment in the payer's words. */
export const refusalMessage = (reason: string | null): string =>
  (reason === null ? undefined : refusalLabels[reason]) ?? "O pagamento não foi aprovado."

const methodLabels: Record<Invoice.Invoice["method"], string> = {
  pix: "Pix",
  bank_slip: "Boleto",
  credit_card: "Cartão de crédito"
}

const saoPaulo = new Intl.DateTimeFormat("pt-BR", {
  timeZone: "America/Sao_Paulo",
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit"
})

const dateTime = (timestamp: Timestamp.Timestamp) =>
  saoPaulo.format(new Date(Timestamp.toEpochMillis(timestamp))).replace(", ", " às ")

const date = (isoDate: string) => `${isoDate.slice(8, 10)}/${isoDate.slice(5, 7)}/${isoDate.slice(0, 4)}`

const copyBlock = (id: string, label: string, value: string, buttonLabel: string) => `
      <label class="label" for="${id}">${label}</label>
      <textarea id="${id}" class="code" readonly rows="3">${Html.escapeText(value)}</textarea>
      <button type="button" class="button secondary" data-copy="${id}">${buttonLabel}</button>`

const pixSection = (view: CheckoutView, pix: Invoice.PixCharge) => `
    <section class="panel" aria-labelledby="pay-title">
      <h2 id="pay-title">Pague com Pix</h2>
      <p>Abra o app do seu banco, escolha <strong>Pix › Ler QR code</strong> e aponte a câmera.</p>
      <img id="pix-qr" class="qr" src="${view.pixQrImage ?? ""}" alt="QR code Pix" width="240" height="240">
      ${copyBlock("pix-code", "Ou use o Pix copia e cola", pix.qrCode, "Copiar código Pix")}
      <p class="muted">O código expira em <strong id="pix-countdown" data-expires-at="${Timestamp.toEpochMillis(pix.expiresAt)}">${dateTime(pix.expiresAt)}</strong>.</p>
    </section>`

const boletoSection = (view: CheckoutView, boleto: Invoice.BoletoSlip) => {
  const pdf = `/api/v2/public/invoices/${view.invoice.secureId}/boleto.pdf?token=${encodeURIComponent(view.checkoutToken)}`
  return `
    <section class="panel" aria-labelledby="pay-title">
      <h2 id="pay-title">Pague com boleto</h2>
      <p>Vencimento: <strong id="boleto-due-date">${date(boleto.dueDate)}</strong></p>
      ${copyBlock("boleto-line", "Linha digitável", Boleto.formatDigitableLine(boleto.digitableLine), "Copiar linha digitável")}
      <a id="boleto-pdf" class="button" href="${Html.escapeText(pdf)}" target="_blank" rel="noopener noreferrer">Baixar boleto (PDF)</a>
    </section>`
}

const installmentOptions = (amount: Cents.Cents) => {
  const options: Array<string> = []
  for (let count = 1; count <= Card.maximumInstallments; count++) {
    if (count > 1 && Card.checkInstallments(amount, count)._tag === "Failure") break
    const parts = Card.installmentAmounts(amount, count)
    const label =
      count === 1
        ? `1x de ${Cents.formatBRL(amount)} (à vista)`
        : `${count}x de ${Cents.formatBRL(parts[0] ?? amount)} sem juros`
    options.push(`<option value="${count}">${label}</option>`)
  }
  return options.join("")
}

const cardFormSection = (view: CheckoutView) => `
    <section class="panel" aria-labelledby="pay-title">
      <h2 id="pay-title">Pague com cartão de crédito</h2>
      <form id="card-form" novalidate>
        <label class="label" for="card-number">Número do cartão</label>
        <input id="card-number" name="number" inputmode="numeric" autocomplete="cc-number" required>
        <label class="label" for="card-name">Nome impresso no cartão</label>
        <input id="card-name" name="name" autocomplete="cc-name" required>
        <div class="row">
          <div>
            <label class="label" for="card-expiry">Validade (MM/AA)</label>
            <input id="card-expiry" name="expiry" inputmode="numeric" autocomplete="cc-exp" placeholder="MM/AA" required>
          </div>
          <div>
            <label class="label" for="card-cvv">CVV</label>
            <input id="card-cvv" name="cvv" inputmode="numeric" autocomplete="cc-csc" maxlength="4" required>
          </div>
        </div>
        <label class="label" for="card-installments">Parcelas</label>
        <select id="card-installments" name="installments">${installmentOptions(view.invoice.amount)}</select>
        <div id="three-d-secure" class="challenge" hidden>
          <p><strong>Autenticação 3-D Secure</strong></p>
          <p class="muted">Ambiente de testes: escolha o resultado que o banco emissor daria.</p>
          <button type="button" class="button" id="three-d-secure-approve">Autenticar</button>
          <button type="button" class="button secondary" id="three-d-secure-deny">Não autenticar</button>
        </div>
        <p id="card-error" class="error" role="alert" hidden></p>
        <button id="card-submit" class="button" type="submit">Pagar ${Cents.formatBRL(view.invoice.amount)}</button>
      </form>
    </section>`

const threeDSecureLine = (card: Invoice.CardDetails) => {
  const result = card.threeDSecure
  if (result === null) return "Sem autenticação 3-D Secure."
  const details = [
    result.eci === null ? null : `ECI ${result.eci}`,
    result.version === null ? null : `versão ${result.version}`
  ]
    .filter((part) => part !== null)
    .join(", ")
  const outcome = result.authenticated ? "autenticado" : "não autenticado"
  return `3-D Secure: ${outcome}${details === "" ? "" : ` (${Html.escapeText(details)})`}.`
}

const cardLine = (invoice: Invoice.Invoice) => {
  const card = invoice.card
  if (card === null) return ""
  const installments =
    invoice.installments > 1
      ? ` em ${invoice.installments}x de ${Cents.formatBRL(Card.installmentAmounts(invoice.amount, invoice.installments)[0] ?? invoice.amount)}`
      : ""
  return `
      <p>Cartão ${Html.escapeText(card.brand.toUpperCase())} terminado em ${Html.escapeText(card.lastDigits)}${installments}.</p>
      <p id="three-d-secure-result" class="muted">${threeDSecureLine(card)}</p>`
}

const outcomeSection = (invoice: Invoice.Invoice) => {
  switch (invoice.status) {
    case "paid":
      return `
    <section class="panel outcome success" aria-live="polite">
      <h2>Pagamento confirmado</h2>
      <p>Recebemos o seu pagamento${invoice.paidAt === null ? "" : ` em ${dateTime(invoice.paidAt)}`}. Obrigado!</p>${cardLine(invoice)}
    </section>`
    case "refused":
      return `
    <section class="panel outcome failure" aria-live="polite">
      <h2>Pagamento recusado</h2>
      <p id="refused-reason">${Html.escapeText(refusalMessage(invoice.refusedReason))}</p>${cardLine(invoice)}
      <p class="muted">Fale com a loja para receber uma nova cobrança.</p>
    </section>`
    case "expired":
      return `
    <section class="panel outcome failure" aria-live="polite">
      <h2>Esta cobrança expirou</h2>
      <p>O prazo para pagamento terminou. Fale com a loja para receber uma nova cobrança.</p>
    </section>`
    case "refunded":
    case "partially_refunded":
      return `
    <section class="panel outcome" aria-live="polite">
      <h2>${invoice.status === "refunded" ? "Pagamento estornado" : "Pagamento estornado em parte"}</h2>
      <p>Valor estornado: ${Cents.formatBRL(invoice.refundedAmount)} de ${Cents.formatBRL(invoice.amount)}.</p>
    </section>`
    case "chargedback":
      return `
    <section class="panel outcome failure" aria-live="polite">
      <h2>Pagamento contestado</h2>
      <p>O pagamento foi contestado junto ao banco emissor do cartão.</p>
    </section>`
    case "pending":
      return ""
  }
}

const paymentSection = (view: CheckoutView) => {
  const invoice = view.invoice
  if (invoice.status !== "pending") return outcomeSection(invoice)
  if (invoice.pix !== null) return pixSection(view, invoice.pix)
  if (invoice.boleto !== null) return boletoSection(view, invoice.boleto)
  return cardFormSection(view)
}

/** Only the items the merchant listed: the placeholder of an invoice created without items says nothing. */
const listedItems = (invoice: Invoice.Invoice) =>
  invoice.items.filter((item) => !(item.title === Invoice.defaultItemTitle && item.unitPrice === invoice.amount))

const itemsSection = (invoice: Invoice.Invoice) =>
  listedItems(invoice).length === 0
    ? ""
    : `
      <ul class="items">${listedItems(invoice)
        .map(
          (item) => `
        <li><span>${item.quantity > 1 ? `${item.quantity} × ` : ""}${Html.escapeText(item.title)}</span><span>${Cents.formatBRL(Cents.make(item.unitPrice * item.quantity))}</span></li>`
        )
        .join("")}
      </ul>`

const style = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1c2430;background:#f3f5f8}
main{max-width:480px;margin:0 auto;padding:16px}
header{margin:8px 0 16px}
h1{font-size:1.25rem;margin:0}
h2{font-size:1.1rem;margin:0 0 12px}
.panel{background:#fff;border-radius:12px;padding:16px;margin-bottom:16px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
.items{list-style:none;margin:0 0 12px;padding:0}
.items li{display:flex;justify-content:space-between;gap:12px;padding:4px 0;border-bottom:1px solid #eef0f3;overflow-wrap:anywhere}
.total{display:flex;justify-content:space-between;font-size:1.25rem;font-weight:700}
.status{display:inline-block;padding:2px 10px;border-radius:999px;font-size:.85rem;background:#fff4d6;color:#7a5600}
.status-paid{background:#dcf5e6;color:#13613a}
.status-refused,.status-expired,.status-chargedback{background:#fde2e1;color:#8f1d18}
.muted{color:#5b6675;font-size:.9rem}
.qr{display:block;width:240px;max-width:100%;height:auto;margin:8px auto 16px;image-rendering:pixelated}
.label{display:block;font-size:.9rem;margin:12px 0 4px}
input,select,textarea{width:100%;font:inherit;padding:10px;border:1px solid #c6ccd5;border-radius:8px;background:#fff}
.code{resize:none;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85rem;word-break:break-all}
.row{display:flex;gap:12px}
.row>div{flex:1;min-width:0}
.button{display:block;width:100%;margin-top:12px;padding:12px;border:0;border-radius:8px;background:#1357d6;color:#fff;font:inherit;font-weight:600;text-align:center;text-decoration:none;cursor:pointer}
.button.secondary{background:#e8eefb;color:#1357d6}
.button:disabled{opacity:.6;cursor:progress}
.error{color:#8f1d18;background:#fde2e1;border-radius:8px;padding:8px 12px}
.challenge{margin-top:16px;padding:12px;border:1px dashed #1357d6;border-radius:8px}
.success h2{color:#13613a}
.failure h2{color:#8f1d18}
footer{text-align:center;color:#5b6675;font-size:.8rem}
`

// The page's behaviour: copy buttons, the pix countdown, polling the public invoice until it leaves `pending`,
// and the card form (tokenize with the public token, then pay with the checkout token).
const script = `
const config = JSON.parse(document.getElementById("checkout-config").textContent)
const api = (path, init) => fetch(path, init).then(async (response) => ({ ok: response.ok, status: response.status, body: await response.json().catch(() => ({})) }))
const invoiceUrl = "/api/v2/public/invoices/" + config.secureId
const tokenQuery = "?token=" + encodeURIComponent(config.checkoutToken)

for (const button of document.querySelectorAll("[data-copy]")) {
  button.addEventListener("click", async () => {
    const field = document.getElementById(button.dataset.copy)
    const label = button.textContent
    try {
      await navigator.clipboard.writeText(field.value)
    } catch {
      field.select()
      document.execCommand("copy")
    }
    button.textContent = "Copiado!"
    setTimeout(() => { button.textContent = label }, 2000)
  })
}

const countdown = document.getElementById("pix-countdown")
if (countdown) {
  const expiresAt = Number(countdown.dataset.expiresAt)
  const tick = () => {
    const left = Math.max(0, Math.round((expiresAt - Date.now()) / 1000))
    const hours = Math.floor(left / 3600)
    const minutes = String(Math.floor((left % 3600) / 60)).padStart(2, "0")
    const seconds = String(left % 60).padStart(2, "0")
    countdown.textContent = left === 0 ? "instantes" : (hours > 0 ? hours + ":" : "") + minutes + ":" + seconds
  }
  tick()
  setInterval(tick, 1000)
}

let paying = false
if (config.status === "pending") {
  const poll = async () => {
    if (!paying) {
      const reply = await api(invoiceUrl + tokenQuery).catch(() => null)
      if (reply && reply.ok && reply.body.status !== config.status) return location.reload()
    }
    setTimeout(poll, config.pollMilliseconds)
  }
  setTimeout(poll, config.pollMilliseconds)
}

const fieldMessages = {
  number: "Confira o número do cartão.",
  first_name: "Informe o nome impresso no cartão.",
  last_name: "Informe o nome e o sobrenome impressos no cartão.",
  month: "Confira o mês de validade.",
  year: "Confira a validade do cartão.",
  security_code: "Confira o código de segurança (CVV)."
}
const messageOf = (reply) => {
  const issue = (reply.body.issues || [])[0]
  const field = issue ? String(issue.path).split(".").pop() : ""
  if (fieldMessages[field]) return fieldMessages[field]
  if (reply.status === 429) return "Muitas tentativas. Aguarde um momento e tente de novo."
  if (reply.status === 503) return "O processador de cartões está indisponível. Tente de novo em instantes."
  if (reply.status === 422 && reply.body.code === "installment_too_small") return "Escolha menos parcelas."
  if (reply.status === 409 || reply.status === 404) return "Esta cobrança não pode mais ser paga. Recarregue a página."
  return "Não foi possível processar o cartão. Confira os dados e tente de novo."
}

const randomHex = (bytes) => Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("")

// The sandbox stands in for the issuer's 3-D Secure challenge: the payer picks the issuer's answer.
const authenticate = () => new Promise((resolve) => {
  const panel = document.getElementById("three-d-secure")
  panel.hidden = false
  const done = (result) => { panel.hidden = true; resolve(result) }
  document.getElementById("three-d-secure-approve").onclick = () =>
    done({ eci: "05", cavv: btoa(randomHex(10)), xid: btoa(randomHex(10)), version: "2.2.0", referenceid: crypto.randomUUID() })
  document.getElementById("three-d-secure-deny").onclick = () => done({})
})

const form = document.getElementById("card-form")
if (form) {
  const error = document.getElementById("card-error")
  const submit = document.getElementById("card-submit")
  const show = (message) => { error.textContent = message; error.hidden = message === "" }
  form.addEventListener("submit", async (event) => {
    event.preventDefault()
    if (paying) return
    show("")
    const value = (id) => document.getElementById(id).value.trim()
    const name = value("card-name").split(/\\s+/).filter(Boolean)
    const expiry = value("card-expiry").replace(/[^0-9]/g, "")
    const year = expiry.slice(2)
    const card = {
      number: value("card-number"),
      first_name: name[0] || "",
      last_name: name.slice(1).join(" ") || "",
      month: expiry.slice(0, 2),
      year: year.length === 2 ? "20" + year : year,
      security_code: value("card-cvv")
    }
    paying = true
    submit.disabled = true
    submit.textContent = "Processando…"
    const finish = (message) => {
      paying = false
      submit.disabled = false
      submit.textContent = config.payLabel
      show(message)
    }
    const tokenized = await api("/api/v2/public/cards", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer " + config.publicToken },
      body: JSON.stringify(card)
    }).catch(() => null)
    if (!tokenized || !tokenized.ok) return finish(tokenized ? messageOf(tokenized) : "Sem conexão. Tente de novo.")
    const threeDSecure = config.sandboxThreeDSecure ? await authenticate() : {}
    const paid = await api(invoiceUrl + "/pay" + tokenQuery, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ card: { token: tokenized.body.token, installment: Number(value("card-installments")), ...threeDSecure } })
    }).catch(() => null)
    if (!paid || !paid.ok) return finish(paid ? messageOf(paid) : "Sem conexão. Tente de novo.")
    location.reload()
  })
}
`

/** The whole page for `view`. */
export const render = (view: CheckoutView): string => {
  const invoice = view.invoice
  const config = {
    secureId: invoice.secureId,
    checkoutToken: view.checkoutToken,
    publicToken: view.publicToken,
    status: invoice.status,
    sandboxThreeDSecure: view.sandboxThreeDSecure,
    payLabel: `Pagar ${Cents.formatBRL(invoice.amount)}`,
    pollMilliseconds: 3000
  }
  return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Pagamento para ${Html.escapeText(view.merchantName)}</title>
<style nonce="${view.nonce}">${style}</style>
</head>
<body>
  <main>
    <header>
      <p class="muted">Pagamento para</p>
      <h1 id="merchant">${Html.escapeText(view.merchantName)}</h1>
    </header>
    <section class="panel" aria-label="Resumo">${itemsSection(invoice)}
      <div class="total"><span>Total</span><span id="total">${Cents.formatBRL(invoice.amount)}</span></div>
      <p class="muted">${methodLabels[invoice.method]} · <span id="status" class="status status-${invoice.status}">${statusLabels[invoice.status]}</span></p>
    </section>${paymentSection(view)}
    <footer>Pagamento processado por Fatura${invoice.mode === "test" ? " · ambiente de testes" : ""}</footer>
  </main>
  <script id="checkout-config" type="application/json">${scriptJson(config)}</script>
  <script nonce="${view.nonce}">${script}</script>
</body>
</html>
`
}

/** The page's Content-Security-Policy: its own inline code only, images inline, calls to this server only. */
export const contentSecurityPolicy = (nonce: string): string =>
  [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "img-src data:",
    "connect-src 'self'",
    "form-action 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'"
  ].join("; ")

/** A page with one message: an unknown invoice or a wrong token (alike, so that neither is told apart), or an outage. */
export const message = (nonce: string, title: string, text: string): string => `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${Html.escapeText(title)}</title>
<style nonce="${nonce}">${style}</style>
</head>
<body>
  <main>
    <section class="panel">
      <h2>${Html.escapeText(title)}</h2>
      <p>${Html.escapeText(text)}</p>
    </section>
  </main>
</body>
</html>
`
