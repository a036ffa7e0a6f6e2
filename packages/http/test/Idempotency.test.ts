// What a repeat with the same Idempotency-Key is compared on: the payload as canonical JSON, with card data reduced to
// what is shown of a card, so that the stored hash cannot be used to recover a card number or a security code.
import { describe, expect, it } from "vitest"
import { payloadFingerprint } from "../src/Idempotency.js"

const card = { number: "4111 1111 1111 1111", security_code: "123", first_name: "Maria", month: "12", year: "2030" }

describe("payloadFingerprint", () => {
  it("does not depend on the order of keys", () => {
    expect(payloadFingerprint({ a: 1, b: { c: 2, d: [3, { e: 4, f: 5 }] } })).toBe(
      payloadFingerprint({ b: { d: [3, { f: 5, e: 4 }], c: 2 }, a: 1 })
    )
  })

  it("keeps neither the number nor the security code of an invoice's card", () => {
    const fingerprint = payloadFingerprint({ method: "credit_card", card })
    expect(fingerprint).not.toMatch(/4111 ?1111 ?1111 ?1111|411111111111|"123"/)
    expect(JSON.parse(fingerprint).card).toMatchObject({ number: "411111…1111/16", security_code: 3 })
  })

  it("keeps neither the number nor the security code of a card tokenization, which is card data itself", () => {
    const fingerprint = payloadFingerprint(card)
    expect(fingerprint).not.toMatch(/4111 ?1111 ?1111 ?1111|411111111111|"123"/)
    expect(JSON.parse(fingerprint)).toMatchObject({ number: "411111…1111/16", security_code: 3, first_name: "Maria" })
  })

  it("still tells different payloads apart", () => {
    expect(payloadFingerprint({ amount: 100 })).not.toBe(payloadFingerprint({ amount: 101 }))
    expect(payloadFingerprint(undefined)).toBe("")
  })
})
