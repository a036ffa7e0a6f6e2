// The baseline's create request (bench/baseline.mjs): the JSON body parsed and validated minimally.

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

const checkDigitsOk = (digits, weightsFrom) => {
  for (let position = digits.length - 2; position < digits.length; position++) {
    let sum = 0
    for (let i = 0; i < position; i++) sum += Number(digits[i]) * weightsFrom(position, i)
    const rest = sum % 11
    if (Number(digits[position]) !== (rest < 2 ? 0 : 11 - rest)) return false
  }
  return true
}

const documentOf = (text) => {
  if (typeof text !== "string") return undefined
  const digits = text.replace(/[.\-/\s]/g, "")
  if (!/^\d+$/.test(digits) || /^(\d)\1+$/.test(digits)) return undefined
  if (digits.length === 11 && checkDigitsOk(digits, (position, i) => position + 1 - i)) {
    return { type: "cpf", number: digits }
  }
  if (digits.length === 14 && checkDigitsOk(digits, (position, i) => ((position - 1 - i) % 8) + 2)) {
    return { type: "cnpj", number: digits }
  }
  return undefined
}

const isCount = (value, min) => Number.isSafeInteger(value) && value >= min

/** The create request, or a string saying what is wrong with it. */
export const validateCreate = (body) => {
  if (body === null || typeof body !== "object") return "the body must be a JSON object"
  if (body.method !== "pix") return "method: only pix is served by the baseline"
  if (!isCount(body.total_price_cents, 1)) return "total_price_cents: must be a positive integer"
  const payer = body.payer
  if (payer === null || typeof payer !== "object") return "payer: required"
  if (typeof payer.name !== "string" || payer.name.trim() === "") return "payer.name: required"
  const document = documentOf(payer.cpf_cnpj)
  if (document === undefined) return "payer.cpf_cnpj: invalid"
  if (typeof payer.email !== "string" || !emailPattern.test(payer.email)) return "payer.email: invalid"
  if (!Array.isArray(body.items) || body.items.length === 0) return "items: at least one"
  let sum = 0
  for (const item of body.items) {
    if (item === null || typeof item !== "object" || typeof item.name !== "string") return "items: name required"
    if (!isCount(item.quantity, 1) || !isCount(item.unit_price, 0)) return "items: quantity and unit_price"
    sum += item.quantity * item.unit_price
  }
  if (sum !== body.total_price_cents) return "total_price_cents: must be the sum of the items"
  return {
    amount: body.total_price_cents,
    payer: { name: payer.name.trim(), email: payer.email, documentType: document.type, document: document.number },
    items: body.items.map((item) => ({ title: item.name, quantity: item.quantity, unitPrice: item.unit_price }))
  }
}
