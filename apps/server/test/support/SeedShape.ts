// The seed's Invoice transaction, field by field with its type, and the check that a value has the seed's shape: what
// PixInvoice.test.ts holds a created and a searched pix invoice to.
import { expect } from "vitest"

const timestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/

type Kind = "integer" | "number" | "string" | "boolean" | "timestamp" | "object" | "array"
type Field = Kind | `${Kind}?` | "null"

// The seed's Invoice transaction, field by field with its type ("?" = null allowed).
export const transactionFields: Record<string, Field> = {
  id: "integer",
  secureId: "string",
  companyId: "integer",
  amount: "integer",
  installments: "integer",
  paymentMethod: "string",
  status: "string",
  createdAt: "timestamp",
  updatedAt: "timestamp",
  paidAt: "timestamp?",
  refundedAmount: "integer",
  refusedReason: "string?",
  postbackUrl: "string",
  traceable: "boolean",
  boleto: "object?",
  card: "object?",
  card_associate: "object?",
  delivery: "object?",
  shipping: "object?",
  ip: "string?",
  metadata: "object?",
  externalRef: "string?",
  financial_movements: "array",
  refunds: "array",
  splits: "array",
  timeline: "array",
  items: "array",
  pix: "object",
  fee: "object",
  client: "object",
  customer: "object",
  enterprise: "object",
  invoice: "object"
}

export const nestedFields: Record<string, Record<string, Field>> = {
  item: { title: "string", quantity: "integer", unitPrice: "integer", tangible: "boolean", externalRef: "string?" },
  fee: { estimatedFee: "number", fixedAmount: "number", netAmount: "number", spreadPercentage: "number" },
  client: {
    id: "integer",
    name: "string",
    email: "string",
    phone: "string",
    cpf_cnpj: "string",
    created_at: "timestamp",
    updated_at: "timestamp"
  },
  customer: {
    id: "integer",
    name: "string",
    email: "string",
    phone: "string",
    birthdate: "string?",
    createdAt: "timestamp",
    externalRef: "string?",
    document: "object",
    address: "object"
  },
  document: { number: "string", type: "string" },
  address: {
    street: "string",
    streetNumber: "string",
    neighborhood: "string",
    city: "string",
    state: "string",
    zipCode: "string",
    complement: "string?",
    country: "string"
  },
  enterprise: {
    id: "integer",
    cnpj: "string",
    company_type: "string",
    corporate_reason: "string",
    fantasy_name: "string",
    url_website: "string",
    address: "string",
    address_city: "string",
    address_number: "string",
    address_postal_code: "string",
    address_province: "string",
    address_state: "string",
    bank_account: "string",
    bank_agency: "string",
    bank_digit: "string",
    bank_name: "string",
    bank_type: "string",
    amount_invoice_total: "integer",
    amount_invoices_competicion: "integer",
    balance_bank_slip: "integer",
    balance_card: "integer",
    balance_pix: "integer",
    blocked_bank_slip: "boolean",
    blocked_card: "boolean",
    blocked_pix: "boolean",
    blocked_processing: "boolean",
    blocked_sake: "boolean",
    blocked_system: "boolean",
    is_custom: "boolean",
    create_at: "timestamp",
    update_at: "timestamp"
  },
  invoice: {
    id: "integer",
    invoice_id: "string",
    invoice_id_external: "string?",
    invoice_id_external2: "string?",
    invoice_id_external3: "string?",
    payment_method: "string",
    status: "string",
    is_pix: "boolean",
    is_bank_slip: "boolean",
    is_credit_card: "boolean",
    is_anticipated: "boolean",
    anticipation_approved: "boolean",
    is_indication_tax: "boolean",
    postback_url: "string",
    qr_code_pix: "string",
    token_checkout: "string",
    retention_tax: "number",
    value_adq: "number",
    value_platform: "number",
    value_indication: "number",
    value_seller: "number",
    value_total: "number",
    created_at: "timestamp",
    updated_at: "timestamp"
  }
}

const hasKind = (value: unknown, kind: Kind): boolean => {
  switch (kind) {
    case "integer":
      return Number.isInteger(value)
    case "number":
      return typeof value === "number" && Number.isFinite(value)
    case "timestamp":
      return typeof value === "string" && timestamp.test(value)
    case "array":
      return Array.isArray(value)
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value)
    default:
      return typeof value === kind
  }
}

/** Every field of the seed is present with the seed's type. */
export const expectShape = (value: Record<string, unknown>, fields: Record<string, Field>, where: string) => {
  for (const [name, field] of Object.entries(fields)) {
    expect(value, `${where}.${name} is missing`).toHaveProperty(name)
    const actual = value[name]
    const nullable = field.endsWith("?")
    const kind = field.replace("?", "") as Kind
    const ok = (nullable && actual === null) || hasKind(actual, kind)
    expect(ok, `${where}.${name} should be ${field}, got ${JSON.stringify(actual)}`).toBe(true)
  }
}
