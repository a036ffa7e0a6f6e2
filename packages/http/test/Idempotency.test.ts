// What a repeat with the same Idempotency-Key is compared on: the payload as canonical JSON, with a card's number
// replaced by a keyed digest and its security code left out — two cards are told apart, also two that show the same
// first six and last four digits; the stored hash cannot be used to recover the number, nor to test guesses without
// the key, and holds nothing of the security code.
import { describe, expect, it } from "vitest"
import { cardDigest, payloadFingerprint } from "../src/Idempotency.js"

const card = { number: "4111 1111 1111 1111", security_code: "123", first_name: "Maria", month: "12", year: "2030" }
/** Another Luhn-valid card with the same first six and last four digits. */
const lookalike = { ...card, number: "4111 1100 0009 1111" }

const digest = cardDigest("a-deployment-key-of-32-characters")
const fingerprint = (payload: unknown) => payloadFingerprint(payload, digest)
const cardData = /4111 ?1111 ?1111 ?1111|4111 ?1100 ?0009 ?1111|411111|"123"|"321"/

describe("payloadFingerprint", () => {
  it("does not depend on the order of keys", () => {
    expect(fingerprint({ a: 1, b: { c: 2, d: [3, { e: 4, f: 5 }] } })).toBe(
      fingerprint({ b: { d: [3, { f: 5, e: 4 }], c: 2 }, a: 1 })
    )
  })

  it("keeps neither the number nor the security code of an invoice's card, nor of a tokenization", () => {
    for (const payload of [{ method: "credit_card", card }, card, { card }]) {
      expect(fingerprint(payload)).not.toMatch(cardData)
      expect(fingerprint(payload)).toContain("first_name")
    }
  })

  it("tells apart two cards that show the same first six and last four digits, and keeps nothing of the security code", () => {
    for (const wrap of [
      (data: object) => ({ method: "credit_card", card: data }),
      (data: object) => data,
      (data: object) => ({ card: data })
    ]) {
      const first = fingerprint(wrap(card))
      expect(fingerprint(wrap(lookalike))).not.toBe(first)
      // Nothing of the security code is kept, so a repeat that differs only in it is the same request.
      expect(fingerprint(wrap({ ...card, security_code: "321" }))).toBe(first)
      // The same card, spaced otherwise, is the same card.
      expect(fingerprint(wrap({ ...card, number: "4111111111111111" }))).toBe(first)
    }
  })

  it("depends on the key: without it, a fingerprint cannot be matched against a guess", () => {
    const other = cardDigest("another-deployment-key-32-characters")
    expect(payloadFingerprint(card, other)).not.toBe(fingerprint(card))
    expect(payloadFingerprint({ amount: 100 }, other)).toBe(fingerprint({ amount: 100 }))
  })

  it("leaves a card without number or security code (a card token) as it is", () => {
    const token = { card: { token: "card_8c1f", eci: "05" } }
    expect(JSON.parse(fingerprint(token))).toEqual(token)
  })

  it("still tells different payloads apart", () => {
    expect(fingerprint({ amount: 100 })).not.toBe(fingerprint({ amount: 101 }))
    expect(fingerprint(undefined)).toBe("")
  })
})
