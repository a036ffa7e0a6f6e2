// The dynamic BR Code: its CRC, its fields, and reading its location back.
import { Option } from "effect"
import { hasError, isDynamicPix, parsePix } from "pix-utils"
import { describe, expect, it } from "vitest"
import * as BrCode from "../src/BrCode.js"

describe("BrCode", () => {
  it("computes CRC16/CCITT-FALSE", () => {
    expect(BrCode.crc16("123456789")).toBe("29B1")
  })

  it("writes a dynamic code that a pix library reads as one, and reads its location back", () => {
    const url = "127.0.0.1:8443/qr/v2/0123456789abcdef0123456789abcdef"
    const code = BrCode.dynamic({
      url,
      merchantName: "Padaria São João do Açaí Ltda ME",
      merchantCity: "Florianópolis"
    })
    expect(code.startsWith("000201010212")).toBe(true)
    const parsed = parsePix(code)
    if (hasError(parsed) || !isDynamicPix(parsed)) throw new Error(`not dynamic: ${JSON.stringify(parsed)}`)
    expect(parsed).toMatchObject({ url, merchantName: "Padaria Sao Joao do Acai", merchantCity: "Florianopolis" })
    expect(BrCode.locationOf(code)).toEqual(Option.some(url))
  })

  it("reads no location from a code whose CRC is wrong, or that is not a dynamic pix", () => {
    const code = BrCode.dynamic({ url: "host/qr/v2/x", merchantName: "A", merchantCity: "B" })
    expect(BrCode.locationOf(`${code.slice(0, -4)}0000`)).toEqual(Option.none())
    expect(BrCode.locationOf("not a code")).toEqual(Option.none())
  })
})
