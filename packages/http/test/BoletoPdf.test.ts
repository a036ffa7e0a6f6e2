// The boleto PDF read back by tools that did not write it: pdf.js (through unpdf) for the text and the image,
// and ZXing's Interleaved 2 of 5 reader for the barcode's digits.
import {
  BarcodeFormat,
  BinaryBitmap,
  DecodeHintType,
  HybridBinarizer,
  ITFReader,
  QRCodeReader,
  RGBLuminanceSource
} from "@zxing/library"
import { extractImages, extractText, getDocumentProxy } from "unpdf"
import { describe, expect, it } from "vitest"
import { type BoletoDocument, render } from "../src/BoletoPdf.js"

// A consistent FEBRABAN pair: bank 001, currency 9, general check digit 2 (mod 11), factor 1020 (2025-03-14 in
// the 2025 cycle), R$ 1.234,56, free field = our number 12345 on 17 digits + beneficiary code 00123456; the line
// holds the same fields with their mod-10 digits.
const sample: BoletoDocument = {
  payee: { name: "João Ação Ltda", document: "12.345.678/0001-95" },
  payer: {
    name: "Zoë Gonçalves Müller",
    document: "123.456.789-09",
    address: "Rua Álvares Cabral, 100 — São Paulo/SP"
  },
  amount: 123_456,
  dueDate: "2025-03-14",
  bankCode: "001",
  ourNumber: "00000000000012345",
  barcode: "00192102000001234560000000000001234500123456",
  digitableLine: "00190000090000000123045001234561210200000123456",
  documentNumber: "inv_8f3a2c",
  issuedAt: "2025-03-04",
  registration: "registered",
  pixQrCode: null
}

// pdf.js may split or join text items; collapsing whitespace keeps the checks about content, not layout. It also
// takes over (detaches) the buffer it is given, hence the copies.
const textOf = async (pdf: Uint8Array): Promise<string> => {
  const { text } = await extractText(await getDocumentProxy(pdf.slice()), { mergePages: true })
  return text.replace(/\s+/g, " ")
}

const imagesOf = async (pdf: Uint8Array) => extractImages(await getDocumentProxy(pdf.slice()), 1)

interface Image {
  readonly data: Uint8ClampedArray
  readonly width: number
  readonly height: number
  readonly channels: 1 | 3 | 4
}

const bitmapOf = (image: Image): BinaryBitmap => {
  const luminance = new Uint8ClampedArray(image.width * image.height)
  for (let pixel = 0; pixel < luminance.length; pixel++) {
    const offset = pixel * image.channels
    luminance[pixel] =
      image.channels === 1
        ? image.data[offset]!
        : (image.data[offset]! + image.data[offset + 1]! + image.data[offset + 2]!) / 3
  }
  return new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(luminance, image.width, image.height)))
}

// ZXing's readers on the decoded pixels of an embedded image, as a scanner would see them.
const decodeQrCode = (image: Image): string => new QRCodeReader().decode(bitmapOf(image)).getText()

const decodeBarcode = (image: Image): string => {
  const hints = new Map<DecodeHintType, unknown>([
    [DecodeHintType.POSSIBLE_FORMATS, [BarcodeFormat.ITF]],
    [DecodeHintType.ALLOWED_LENGTHS, Int32Array.from([44])]
  ])
  return new ITFReader().decode(bitmapOf(image), hints).getText()
}

describe("BoletoPdf", () => {
  it("renders a small PDF", async () => {
    const pdf = await render(sample)
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe("%PDF-")
    expect(pdf.length).toBeLessThan(100_000)
  })

  it("shows the slip's fields in pt-BR, accents included", async () => {
    const text = await textOf(await render(sample))
    expect(text).toContain("00190.00009 00000.001230 45001.234561 2 10200000123456")
    expect(text).toContain("Local de pagamento")
    expect(text).toContain("Vencimento")
    expect(text).toContain("14/03/2025")
    expect(text).toContain("Valor do documento")
    expect(text).toContain("R$ 1.234,56")
    expect(text).toContain("Beneficiário")
    expect(text).toContain("João Ação Ltda")
    expect(text).toContain("12.345.678/0001-95")
    expect(text).toContain("Pagador")
    expect(text).toContain("Zoë Gonçalves Müller")
    expect(text).toContain("123.456.789-09")
    expect(text).toContain("Rua Álvares Cabral, 100 — São Paulo/SP")
    expect(text).toContain("Nosso número")
    expect(text).toContain("00000000000012345")
    expect(text).toContain("Número do documento")
    expect(text).toContain("inv_8f3a2c")
    expect(text).toContain("04/03/2025")
    expect(text).toContain("001")
  })

  it("formats amounts in whole reais and cents", async () => {
    const amounts: ReadonlyArray<readonly [number, string]> = [
      [0, "R$ 0,00"],
      [5, "R$ 0,05"],
      [100, "R$ 1,00"],
      [9_999_999_999, "R$ 99.999.999,99"]
    ]
    for (const [amount, shown] of amounts) {
      expect(await textOf(await render({ ...sample, amount }))).toContain(shown)
    }
  })

  it("writes names outside WinAnsi without throwing", async () => {
    const text = await textOf(
      await render({ ...sample, payer: { ...sample.payer, name: "Őrs Łukasz 李 Ação" }, documentNumber: "a\tb\nc" })
    )
    // ő loses its accent, Ł and 李 have no WinAnsi form; Latin-1 accents stay.
    expect(text).toContain("Ors ?ukasz ? Ação")
    expect(text).toContain("a b c")
  })

  it("cuts text too long for its box instead of overflowing", async () => {
    const text = await textOf(await render({ ...sample, payer: { ...sample.payer, address: "Rua Longa ".repeat(40) } }))
    expect(text).toMatch(/CPF\/CNPJ 123\.456\.789-09 Rua Longa[^…]*…/)
    expect(text).not.toContain("Rua Longa ".repeat(40).trim())
  })

  it("embeds one image, the ITF barcode of the 44 digits", async () => {
    const images = await imagesOf(await render(sample))
    expect(images).toHaveLength(1)
    const [barcode] = images
    // Two pixels a module: 10 quiet modules, start (4 narrow), 22 pairs of digits × 18 (each digit 2 wide of 3 modules
    // + 3 narrow), stop (wide bar, narrow space, narrow bar: 5), 10 quiet modules.
    expect(barcode!.width).toBe(2 * (10 + 4 + 22 * 18 + 5 + 10))
    expect(decodeBarcode(barcode!)).toBe(sample.barcode)
  })

  it("draws each document's own barcode", async () => {
    // Another barcode and its line (bank 237, factor 9999, R$ 0,01), so that a fixed or cached image would show.
    const other = {
      ...sample,
      bankCode: "237",
      amount: 1,
      barcode: "23792999900000000019876543210987654321098765",
      digitableLine: "23799876504321098765743210987657299990000000001"
    }
    const [barcode] = await imagesOf(await render(other))
    expect(decodeBarcode(barcode!)).toBe(other.barcode)
  })

  it("says above all that a slip the bank has not registered, or refused, cannot be paid", async () => {
    const notices = {
      pending: "BOLETO AINDA NÃO REGISTRADO NO BANCO",
      rejected: "BOLETO RECUSADO PELO BANCO"
    }
    expect(await textOf(await render(sample))).not.toMatch(/REGISTRADO|RECUSADO/)
    const pending = await textOf(await render({ ...sample, registration: "pending" }))
    expect(pending).toContain(notices.pending)
    expect(pending).toContain("nenhum banco o aceita")
    expect(pending.indexOf(notices.pending)).toBeLessThan(pending.indexOf("Ficha de Compensação"))
    const rejected = await textOf(await render({ ...sample, registration: "rejected" }))
    expect(rejected).toContain(notices.rejected)
    expect(rejected).toContain("não pode ser pago")
    expect(rejected).not.toContain(notices.pending)
  })

  it("carries a hybrid slip's pix QR code, which reads back as its BR Code", async () => {
    const pixQrCode =
      "00020101021226830014br.gov.bcb.pix2561psp.example/v2/cobv/9d36b84fc70b478fb95c12729b90ca25520400005303986" +
      "5802BR5913Joao Acao Ltda6009SAO PAULO62070503***6304ABCD"
    const pdf = await render({ ...sample, pixQrCode })
    expect(await textOf(pdf)).toContain("Pague com Pix")
    const images = await imagesOf(pdf)
    expect(images).toHaveLength(2)
    expect(decodeBarcode(images[0]!)).toBe(sample.barcode)
    expect(decodeQrCode(images[1]!)).toBe(pixQrCode)
  })

  it("gives the same bytes for the same document", async () => {
    expect(await render(sample)).toEqual(await render(sample))
  })

  it("rejects a malformed barcode or line", async () => {
    await expect(render({ ...sample, barcode: sample.barcode.slice(1) })).rejects.toThrow(/barcode must be 44 digits/)
    await expect(render({ ...sample, digitableLine: `${sample.digitableLine}0` })).rejects.toThrow(
      /digitableLine must be 47 digits/
    )
    await expect(render({ ...sample, amount: 1.5 })).rejects.toThrow(/amount/)
  })
})
