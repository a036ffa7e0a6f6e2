// The hosted checkout page (SPEC 11.3) as one self-contained HTML document: inline style and script under a
// per-response nonce, the pix QR code as an inline image, nothing fetched from anywhere but this server. The page,
// its style and its script are files of assets/checkout/, read when the server starts (`HtmlTemplate`); the sections
// that depend on the invoice's method and status are written here.
import { Boleto, Card, Cents, Invoice, type InvoiceStatus, Timestamp } from "@fatura/domain"
import * as Html from "./Html.js"
import * as HtmlTemplate from "./HtmlTemplate.js"

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

const templates = {
  page: HtmlTemplate.read("checkout/page.html", [
    "nonce",
    "merchant",
    "items",
    "total",
    "method",
    "status",
    "statusLabel",
    "payment",
    "environment",
    "config"
  ]),
  cardForm: HtmlTemplate.read("checkout/card-form.html", ["installments", "payLabel"]),
  message: HtmlTemplate.read("checkout/message.html", ["nonce", "title", "text"])
}

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

const payLabel = (invoice: Invoice.Invoice) => `Pagar ${Cents.formatBRL(invoice.amount)}`

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

// A hybrid boleto's pix charge, under its slip: payable until the boleto falls due.
const hybridPix = (view: CheckoutView, pix: Invoice.PixCharge) => `
      <h3>Ou pague com Pix</h3>
      <img id="pix-qr" class="qr" src="${view.pixQrImage ?? ""}" alt="QR code Pix" width="240" height="240">
      ${copyBlock("pix-code", "Pix copia e cola", pix.qrCode, "Copiar código Pix")}`

const boletoSection = (view: CheckoutView, boleto: Invoice.BoletoSlip) => {
  const pdf = `/api/v2/public/invoices/${view.invoice.secureId}/boleto.pdf?token=${encodeURIComponent(view.checkoutToken)}`
  return `
    <section class="panel" aria-labelledby="pay-title">
      <h2 id="pay-title">Pague com boleto</h2>
      <p>Vencimento: <strong id="boleto-due-date">${date(boleto.dueDate)}</strong></p>
      ${copyBlock("boleto-line", "Linha digitável", Boleto.formatDigitableLine(boleto.digitableLine), "Copiar linha digitável")}
      <a id="boleto-pdf" class="button" href="${Html.escapeText(pdf)}" target="_blank" rel="noopener noreferrer">Baixar boleto (PDF)</a>${view.invoice.pix === null ? "" : hybridPix(view, view.invoice.pix)}
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

const cardFormSection = (view: CheckoutView) =>
  templates.cardForm.fill({
    installments: HtmlTemplate.markup(installmentOptions(view.invoice.amount)),
    payLabel: payLabel(view.invoice)
  })

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
  if (invoice.boleto !== null) return boletoSection(view, invoice.boleto)
  if (invoice.pix !== null) return pixSection(view, invoice.pix)
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

/** The whole page for `view`. */
export const render = (view: CheckoutView): string => {
  const invoice = view.invoice
  const config = {
    secureId: invoice.secureId,
    checkoutToken: view.checkoutToken,
    publicToken: view.publicToken,
    status: invoice.status,
    sandboxThreeDSecure: view.sandboxThreeDSecure,
    payLabel: payLabel(invoice),
    pollMilliseconds: 3000
  }
  return templates.page.fill({
    nonce: view.nonce,
    merchant: view.merchantName,
    items: HtmlTemplate.markup(itemsSection(invoice)),
    total: Cents.formatBRL(invoice.amount),
    method: methodLabels[invoice.method],
    status: invoice.status,
    statusLabel: statusLabels[invoice.status],
    payment: HtmlTemplate.markup(paymentSection(view)),
    environment: invoice.mode === "test" ? " · ambiente de testes" : "",
    config: HtmlTemplate.scriptJson(config)
  })
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
export const message = (nonce: string, title: string, text: string): string =>
  templates.message.fill({ nonce, title, text })
