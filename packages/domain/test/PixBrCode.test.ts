import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import * as fc from "fast-check"
import { hasError, parsePix } from "pix-utils"
import { propertyRuns } from "../../../scripts/property-tests/settings.mjs"
import { Cents, PixBrCode, PixKey } from "../src/index.js"

const pixKey = (text: string) => Result.getOrThrow(PixKey.parse(text)).key

const input: PixBrCode.BrCodeInput = {
  pixKey: pixKey("pix@fatura.example"),
  merchantName: "Padaria São João Ltda",
  merchantCity: "São Paulo",
  amount: Cents.make(12_345),
  txid: "INV0001"
}

// pix-utils (an independent BR Code library) checks the CRC before anything else and answers an error
// object instead of throwing.
const readWithPixUtils = (brCode: string) => {
  const pix = parsePix(brCode)
  if (hasError(pix)) throw new Error(`pix-utils rejects ${brCode}: ${JSON.stringify(pix)}`)
  if (pix.type !== "STATIC") throw new Error(`pix-utils reads a ${pix.type} pix`)
  return pix
}

describe("PixBrCode", () => {
  describe("crc16", () => {
    it("is CRC-16/CCITT-FALSE", () => {
      expect(PixBrCode.crc16("123456789")).toBe("29B1")
      expect(PixBrCode.crc16("")).toBe("FFFF")
    })

    it("gives the CRC of Banco Central's example BR Code", () => {
      const example =
        "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000" +
        "5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D"
      expect(PixBrCode.crc16(example.slice(0, -4))).toBe("1D3D")
    })

    it("pads to four uppercase hex digits", () => {
      fc.assert(
        fc.property(fc.string(), (text) => {
          expect(PixBrCode.crc16(text)).toMatch(/^[0-9A-F]{4}$/)
        })
      )
    })
  })

  describe("fold", () => {
    it("folds accents and keeps plain ASCII", () => {
      expect(PixBrCode.fold("Padaria São João Ltda", 25)).toBe("Padaria Sao Joao Ltda")
      expect(PixBrCode.fold("São Paulo", 15)).toBe("Sao Paulo")
      expect(PixBrCode.fold("Açaí & Café Ñandú", 25)).toBe("Acai & Cafe Nandu")
    })

    it("drops what bank apps may not show, and collapses and trims spaces", () => {
      expect(PixBrCode.fold("  Loja\t\tdo  Zé!! 🎉 ", 25)).toBe("Loja do Ze")
      expect(PixBrCode.fold("Joana D'Arc, Filhos & Cia. - Loja 1/2", 50)).toBe("Joana DArc, Filhos & Cia. - Loja 1/2")
      expect(PixBrCode.fold("東京 ©", 25)).toBe("")
    })

    it("cuts to the maximum length without leaving a space at the end", () => {
      expect(PixBrCode.fold("Santo Antônio do Descoberto", 15)).toBe("Santo Antonio d")
      expect(PixBrCode.fold("Comércio de Alimentos Boa Vista", 25)).toBe("Comercio de Alimentos Boa")
      expect(PixBrCode.fold("Rio de Janeiro", 7)).toBe("Rio de")
    })

    it("always gives at most maxLength characters of the allowed set", () => {
      fc.assert(
        fc.property(fc.string({ unit: "grapheme" }), fc.integer({ min: 1, max: 30 }), (text, maxLength) => {
          const folded = PixBrCode.fold(text, maxLength)
          expect(folded.length).toBeLessThanOrEqual(maxLength)
          expect(folded).toMatch(/^([A-Za-z0-9.,\-&/]+( [A-Za-z0-9.,\-&/]+)*)?$/)
        })
      )
    })
  })

  it("knows a txid: 1 to 25 ASCII letters and digits", () => {
    expect(PixBrCode.isValidTxid("INV0001")).toBe(true)
    expect(PixBrCode.isValidTxid("a".repeat(25))).toBe(true)
    expect(PixBrCode.isValidTxid("")).toBe(false)
    expect(PixBrCode.isValidTxid("a".repeat(26))).toBe(false)
    expect(PixBrCode.isValidTxid("INV-0001")).toBe(false)
    expect(PixBrCode.isValidTxid("***")).toBe(false)
    expect(PixBrCode.isValidTxid("Ção1")).toBe(false)
  })

  describe("build", () => {
    it("writes the fields of SPEC 6.1 in order, each as id, length and value", () => {
      const brCode = PixBrCode.build(input)
      const body =
        "000201" +
        "010212" +
        "2640" +
        "0014br.gov.bcb.pix" +
        "0118pix@fatura.example" +
        "52040000" +
        "5303986" +
        "5406123.45" +
        "5802BR" +
        "5921Padaria Sao Joao Ltda" +
        "6009Sao Paulo" +
        "6211" +
        "0507INV0001" +
        "6304"
      expect(brCode.slice(0, -4)).toBe(body)
      expect(brCode.slice(-4)).toBe(PixBrCode.crc16(body))
    })

    it("writes the amount with two decimals", () => {
      const amountField = (cents: number) =>
        PixBrCode.build({ ...input, amount: Cents.make(cents) }).match(/5303986(54\d\d[\d.]+)5802BR/)?.[1]
      expect(amountField(10_000)).toBe("5406100.00")
      expect(amountField(12_340)).toBe("5406123.40")
      expect(amountField(5)).toBe("54040.05")
      expect(amountField(100_000_000)).toBe("54101000000.00")
    })

    it("falls back to FATURA and SAO PAULO when nothing of the name or city survives folding", () => {
      const brCode = PixBrCode.build({ ...input, merchantName: "東京", merchantCity: " " })
      expect(brCode).toContain("5802BR5906FATURA6009SAO PAULO62")
    })

    it("fills field 26 to its 99 bytes with the longest valid key, an email of 77 characters", () => {
      const longest = pixKey(`${"a".repeat(64)}@loja.exam.br`)
      expect(PixBrCode.build({ ...input, pixKey: longest })).toContain(`26990014br.gov.bcb.pix0177${longest}52040000`)
    })

    it("counts lengths in UTF-8 bytes, as the bank app reading the payload does", () => {
      // Only a key forged past PixKey.parse can carry a letter outside ASCII; its length is still its bytes.
      const forged = "joão@loja.example" as PixKey.PixKey
      expect(PixBrCode.build({ ...input, pixKey: forged })).toContain(
        "2640" + "0014br.gov.bcb.pix" + "0118joão@loja.example"
      )
      expect(() => PixBrCode.build({ ...input, pixKey: `${"ã".repeat(38)}@x.br` as PixKey.PixKey })).toThrow(
        /field 26 is 103 bytes/
      )
    })

    it("refuses to write an invalid txid or a forged pix key too long for its field", () => {
      expect(() => PixBrCode.build({ ...input, txid: "" })).toThrow(/txid/)
      expect(() => PixBrCode.build({ ...input, txid: "INV-1" })).toThrow(/txid/)
      expect(() => PixBrCode.build({ ...input, pixKey: "k".repeat(78) as PixKey.PixKey })).toThrow(/field 26/)
    })
  })

  describe("read by pix-utils", () => {
    it.each([
      [10_000, 100],
      [12_340, 123.4],
      [12_345, 123.45]
    ])("%i cents", (cents, reais) => {
      const pix = readWithPixUtils(PixBrCode.build({ ...input, amount: Cents.make(cents) }))
      expect(pix).toMatchObject({
        pixKey: "pix@fatura.example",
        merchantName: "Padaria Sao Joao Ltda",
        merchantCity: "Sao Paulo",
        transactionAmount: reais,
        txid: "INV0001",
        merchantCategoryCode: "0000",
        transactionCurrency: "986",
        countryCode: "BR"
      })
    })

    it("which checks the CRC", () => {
      const brCode = PixBrCode.build(input)
      const wrongCrc = brCode.slice(0, -4) + (brCode.endsWith("0000") ? "0001" : "0000")
      const alteredAmount = brCode.replace("5406123.45", "5406123.46")
      expect(parsePix(wrongCrc)).toMatchObject({ error: true, message: "invalid crc" })
      expect(parsePix(alteredAmount)).toMatchObject({ error: true, message: "invalid crc" })
    })

    it("for any merchant, amount, key and txid", () => {
      const txid = fc.string({
        unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"),
        minLength: 1,
        maxLength: 25
      })
      fc.assert(
        fc.property(
          fc.string({ unit: "grapheme", maxLength: 60 }),
          fc.string({ unit: "grapheme", maxLength: 40 }),
          fc.integer({ min: 100, max: 100_000_000 }),
          fc
            .oneof(fc.emailAddress(), fc.uuid({ version: 4 }))
            .map((key) => PixKey.parse(key))
            .filter(Result.isSuccess)
            .map((parsed) => parsed.success.key),
          txid,
          (merchantName, merchantCity, amount, pixKey, txid) => {
            const pix = readWithPixUtils(
              PixBrCode.build({ pixKey, merchantName, merchantCity, amount: Cents.make(amount), txid })
            )
            expect(pix.pixKey).toBe(pixKey)
            expect(pix.merchantName).toBe(PixBrCode.fold(merchantName, 25) || "FATURA")
            expect(pix.merchantCity).toBe(PixBrCode.fold(merchantCity, 15) || "SAO PAULO")
            expect(Math.round((pix.transactionAmount ?? 0) * 100)).toBe(amount)
            expect(pix.txid).toBe(txid)
          }
        ),
        { numRuns: propertyRuns(500) }
      )
    })
  })
})
