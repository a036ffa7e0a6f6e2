// The checkout page's behaviour (CheckoutPage.ts puts it inline under the response's nonce): copy buttons, the pix
// countdown, polling the public invoice until it leaves `pending`, and the card form (tokenize with the public token,
// then pay with the checkout token). What it needs of the invoice it reads from the page's `checkout-config` JSON.
const config = JSON.parse(document.getElementById("checkout-config").textContent)
const api = (path, init) =>
  fetch(path, init).then(async (response) => ({
    ok: response.ok,
    status: response.status,
    body: await response.json().catch(() => ({}))
  }))
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
    setTimeout(() => {
      button.textContent = label
    }, 2000)
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
      if (reply?.ok && reply.body.status !== config.status) return location.reload()
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

const randomHex = (bytes) =>
  Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("")

// The sandbox stands in for the issuer's 3-D Secure challenge: the payer picks the issuer's answer.
const authenticate = () =>
  new Promise((resolve) => {
    const panel = document.getElementById("three-d-secure")
    panel.hidden = false
    const done = (result) => {
      panel.hidden = true
      resolve(result)
    }
    document.getElementById("three-d-secure-approve").onclick = () =>
      done({
        eci: "05",
        cavv: btoa(randomHex(10)),
        xid: btoa(randomHex(10)),
        version: "2.2.0",
        referenceid: crypto.randomUUID()
      })
    document.getElementById("three-d-secure-deny").onclick = () => done({})
  })

const form = document.getElementById("card-form")
if (form) {
  const error = document.getElementById("card-error")
  const submit = document.getElementById("card-submit")
  const show = (message) => {
    error.textContent = message
    error.hidden = message === ""
  }
  form.addEventListener("submit", async (event) => {
    event.preventDefault()
    if (paying) return
    show("")
    const value = (id) => document.getElementById(id).value.trim()
    const name = value("card-name").split(/\s+/).filter(Boolean)
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
    if (!tokenized?.ok) return finish(tokenized ? messageOf(tokenized) : "Sem conexão. Tente de novo.")
    const threeDSecure = config.sandboxThreeDSecure ? await authenticate() : {}
    const paid = await api(invoiceUrl + "/pay" + tokenQuery, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        card: { token: tokenized.body.token, installment: Number(value("card-installments")), ...threeDSecure }
      })
    }).catch(() => null)
    if (!paid?.ok) return finish(paid ? messageOf(paid) : "Sem conexão. Tente de novo.")
    location.reload()
  })
}
