// A create request as the handler gets it, decoded once by the contract's schema, and converted into the use case's
// words: what the schema accepted in any of its spellings comes out in one.
import { CreateInvoiceRequest } from "@fatura/api"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { toCreateInput } from "../src/InvoicesHttp.js"

const decoded = Schema.decodeUnknownSync(CreateInvoiceRequest)

describe("toCreateInput", () => {
  it("converts the payer's document, phone, zip and state the contract accepted, as typed", () => {
    const input = toCreateInput(
      decoded({
        method: "bank_slip",
        total_price_cents: 1000,
        product_fisical: "TRUE",
        payer: {
          name: "Ana",
          cpf_cnpj: " 12.abc.345/01de-35 ",
          email: "ana@example.com",
          phone: "+55 (11) 98765-4321",
          address_zip: "01310-100",
          address_line: "Av. Paulista",
          address_number: "1000",
          address_city: "São Paulo",
          address_state: "sp"
        },
        due_date: "2026-12-01"
      })
    )
    expect(input.payer.document).toEqual({ type: "cnpj", number: "12ABC34501DE35" })
    expect(input.payer.phone).toBe("5511987654321")
    expect(input.payer.address.zip).toBe("01310100")
    expect(input.payer.address.state).toBe("SP")
    expect(input.tangible).toBe(true)
    expect(input.dueDate).toBe("2026-12-01")
  })

  it("reads a CPF the contract accepted as a CPF", () => {
    const input = toCreateInput(
      decoded({
        method: "pix",
        total_price_cents: 1000,
        payer: { name: "Ana", cpf_cnpj: "529.982.247-25", email: "ana@example.com" }
      })
    )
    expect(input.payer.document).toEqual({ type: "cpf", number: "52998224725" })
    expect([input.payer.phone, input.payer.address.zip, input.tangible]).toEqual([null, null, false])
  })
})
