// Random identifiers and tokens, and the one-way hash under which secret keys are stored.

import type { Company, Invoice, Timestamp } from "@fatura/domain"
import { Effect } from "effect"
import type { NewApiKey } from "../companies/CompanyRepository.js"

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

/** `length` characters of [0-9A-Za-z], uniformly drawn from a CSPRNG (rejection sampling, no modulo bias). */
export const randomBase62 = (length: number): string => {
  let out = ""
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2))
    for (const byte of bytes) {
      if (byte < 248 && out.length < length) out += base62[byte % 62]
    }
  }
  return out
}

export const randomUuid = (): Invoice.SecureId => crypto.randomUUID() as Invoice.SecureId

/** A URL-safe secret of 256 bits. */
export const randomUrlToken = (): string =>
  Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url")

export const sha256Hex = (text: string): Effect.Effect<string> =>
  Effect.promise(() => crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))).pipe(
    Effect.map((digest) => Buffer.from(digest).toString("hex"))
  )

export const secretKeyPattern = /^sk_(test|live)_[0-9A-Za-z]{32}$/
export const publicTokenPattern = /^pk_(test|live)_[0-9A-Za-z]{32}$/

export const newSecretKey = (mode: Invoice.Mode): string => `sk_${mode}_${randomBase62(32)}`
export const newPublicToken = (mode: Invoice.Mode): string => `pk_${mode}_${randomBase62(32)}`
export const newWebhookSecret = (): string => `whsec_${randomBase62(32)}`

/** What identifies a key in listings and revocation without revealing it: its mode prefix and 8 characters. */
export const keyPrefix = (key: string): string => key.slice(0, key.indexOf("_", 3) + 9)

/** A fresh public token to store when the company has none for `mode` yet; the clear token is kept (SPEC 2). */
export const publicTokenCandidate = (
  companyId: Company.CompanyId,
  mode: Invoice.Mode,
  now: Timestamp.Timestamp
): Effect.Effect<NewApiKey> => {
  const token = newPublicToken(mode)
  return Effect.map(sha256Hex(token), (hash) => ({
    companyId,
    kind: "public",
    mode,
    prefix: keyPrefix(token),
    hash,
    publicToken: token,
    now
  }))
}
