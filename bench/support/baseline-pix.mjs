// What a new pix invoice of the baseline (bench/baseline.mjs) needs: fee split, txid, BR Code, checkout token.
import { randomBytes, randomUUID } from "node:crypto"

const percentOf = (amount, percentage) => Math.round((amount * percentage) / 100)

const feeOf = (plan, amount) => {
  const estimatedFee = percentOf(amount, plan.pix.spreadPercentage) + plan.pix.fixedAmount
  const valueAdq = Math.min(percentOf(amount, plan.acquirerPercentage.pix), estimatedFee)
  const valueIndication = Math.min(percentOf(amount, plan.referrerPercentage), estimatedFee - valueAdq)
  return {
    valueAdq,
    netAmount: amount - estimatedFee,
    valueTotal: amount,
    fixedAmount: plan.pix.fixedAmount,
    valueSeller: amount - estimatedFee,
    estimatedFee,
    valuePlatform: estimatedFee - valueAdq - valueIndication,
    valueIndication,
    spreadPercentage: plan.pix.spreadPercentage
  }
}

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const randomBase62 = (length) => Array.from(randomBytes(length), (byte) => base62[byte % 62]).join("")

const crc16 = (payload) => {
  let crc = 0xffff
  for (const byte of Buffer.from(payload, "utf8")) {
    crc ^= byte << 8
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
  }
  return crc.toString(16).toUpperCase().padStart(4, "0")
}

const field = (id, value) => `${id}${String(value.length).padStart(2, "0")}${value}`

const brCode = (pixKey, merchant, amount, txid) => {
  const payload = [
    field("00", "01"),
    field("01", "12"),
    field("26", field("00", "br.gov.bcb.pix") + field("01", pixKey)),
    field("52", "0000"),
    field("53", "986"),
    field("54", (amount / 100).toFixed(2)),
    field("58", "BR"),
    field(
      "59",
      merchant
        .normalize("NFD")
        .replace(/[^A-Za-z0-9 ]/g, "")
        .slice(0, 25) || "FATURA"
    ),
    field("60", "SAO PAULO"),
    field("62", field("05", txid)),
    "6304"
  ].join("")
  return payload + crc16(payload)
}

export const newPixInvoice = (company, request, now) => {
  const txid = randomBase62(25)
  return {
    secureId: randomUUID(),
    eventId: `evt_${randomUUID()}`,
    amount: request.amount,
    items: request.items.map((item) => ({ ...item, tangible: false, description: null })),
    payer: {
      name: request.payer.name,
      email: request.payer.email,
      phone: null,
      address: { zip: null, city: null, line: null, state: null, number: null, complement: null },
      document: { type: request.payer.documentType, number: request.payer.document }
    },
    tokenCheckout: randomBytes(32).toString("base64url"),
    fee: feeOf(company.fee_plan, request.amount),
    pix: {
      qrCode: brCode(company.pix_key, company.fantasy_name, request.amount, txid),
      txid,
      expiresAt: new Date(Date.parse(now) + 24 * 3600 * 1000).toISOString()
    }
  }
}
