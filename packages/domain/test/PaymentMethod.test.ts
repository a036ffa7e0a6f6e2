import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { PaymentMethod } from "../src/index.js"

describe("PaymentMethod", () => {
  it("knows the three methods and nothing else", () => {
    const isMethod = Schema.is(PaymentMethod.PaymentMethod)
    expect(PaymentMethod.PaymentMethod.literals).toEqual(["pix", "bank_slip", "credit_card"])
    expect(isMethod("boleto")).toBe(false)
    expect(isMethod("card")).toBe(false)
  })

  it("credits each method to its balance", () => {
    expect(PaymentMethod.balanceKindOf("pix")).toBe("pix")
    expect(PaymentMethod.balanceKindOf("bank_slip")).toBe("bank_slip")
    expect(PaymentMethod.balanceKindOf("credit_card")).toBe("card")
  })
})
