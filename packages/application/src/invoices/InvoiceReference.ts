// How a merchant or a payer names an invoice: its secureId or its numeric id, and the checkout token a payer holds.
import type { Invoice } from "@fatura/domain"
import { Option } from "effect"
import type { InvoiceReference } from "./InvoiceRepository.js"

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** Reads the `id` the merchant sent: a secureId, or the numeric id. Anything else names no invoice. */
export const parseReference = (raw: string): Option.Option<InvoiceReference> => {
  const text = raw.trim()
  if (/^[1-9][0-9]{0,14}$/.test(text)) return Option.some({ _tag: "Id", id: Number(text) as Invoice.InvoiceId })
  const lower = text.toLowerCase()
  if (uuidPattern.test(lower)) return Option.some({ _tag: "SecureId", secureId: lower as Invoice.SecureId })
  return Option.none()
}

/** A secureId as a payer's page names it, any case; anything else names no invoice. */
export const parseSecureId = (raw: string): Option.Option<Invoice.SecureId> => {
  const lower = raw.toLowerCase()
  return uuidPattern.test(lower) ? Option.some(lower as Invoice.SecureId) : Option.none()
}

/** Compares secrets in time that does not depend on where they differ. */
export const sameSecret = (expected: string, given: string): boolean => {
  const a = new TextEncoder().encode(expected)
  const b = new TextEncoder().encode(given)
  let difference = a.length ^ b.length
  for (let i = 0; i < a.length; i++) difference |= (a[i] ?? 0) ^ (b[i % Math.max(b.length, 1)] ?? 0)
  return difference === 0
}
