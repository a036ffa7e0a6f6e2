// The bank slip (boleto) as a one-page A4 PDF (SPEC 4.7, 6.2): the "Ficha de Compensação" with its digitable
// line and its Interleaved 2 of 5 barcode, which bwip-js draws and pdf-lib embeds; no fonts or network needed. A slip
// the bank has not registered says so above all (SPEC 15.1), and a hybrid one carries its pix QR code under the bars.
import { Boleto, Cents } from "@fatura/domain"
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from "pdf-lib"
import {
  barcodeHeight,
  barcodePng,
  narrowBar,
  pixelsPerModule,
  qrCodePng,
  qrCodeSide,
  quietZoneModules
} from "./BoletoImages.js"

export interface BoletoDocument {
  readonly payee: { readonly name: string; readonly document: string }
  readonly payer: { readonly name: string; readonly document: string; readonly address: string }
  /** Integer cents. */
  readonly amount: number
  /** YYYY-MM-DD. */
  readonly dueDate: string
  readonly bankCode: string
  readonly ourNumber: string
  /** The 44 digits of the FEBRABAN barcode. */
  readonly barcode: string
  /** The 47 digits of the digitable line. */
  readonly digitableLine: string
  readonly documentNumber: string
  /** YYYY-MM-DD. */
  readonly issuedAt: string
  /** Whether the issuing bank knows the slip: only a registered one can be paid. */
  readonly registration: "pending" | "registered" | "rejected"
  /** The BR Code of the pix charge with a due date that pays it too (a hybrid boleto); null when none. */
  readonly pixQrCode: string | null
}

const pageWidth = 595.28
const pageHeight = 841.89
const margin = 36
const slipWidth = pageWidth - 2 * margin
const rightColumnWidth = 150
const labelSize = 6.5
const valueSize = 9.5
const ink = rgb(0, 0, 0)

// `2025-03-04` → `04/03/2025`.
const formatDate = (date: string): string => {
  const [year, month, day] = date.split("-")
  return `${day}/${month}/${year}`
}

// The issuer built these from validated data, so a malformed one is a bug upstream, not a payer's mistake.
const checkDocument = (document: BoletoDocument): void => {
  const problems = [
    /^\d{44}$/.test(document.barcode) ? undefined : "barcode must be 44 digits",
    /^\d{47}$/.test(document.digitableLine) ? undefined : "digitableLine must be 47 digits",
    /^\d{4}-\d{2}-\d{2}$/.test(document.dueDate) ? undefined : "dueDate must be YYYY-MM-DD",
    /^\d{4}-\d{2}-\d{2}$/.test(document.issuedAt) ? undefined : "issuedAt must be YYYY-MM-DD",
    Number.isSafeInteger(document.amount) && document.amount >= 0 ? undefined : "amount must be integer cents ≥ 0"
  ].filter((problem) => problem !== undefined)
  if (problems.length > 0) throw new TypeError(`Invalid boleto: ${problems.join("; ")}`)
}

// The standard fonts only encode WinAnsi, and pdf-lib throws on anything else: Latin-1 accents pass as they are,
// other letters lose their diacritics (ő → o), and what is left becomes "?" rather than failing the whole slip.
const writable = (font: PDFFont) => {
  const supported = new Set(font.getCharacterSet())
  const encodable = (text: string) => Array.from(text).every((char) => supported.has(char.codePointAt(0)!))
  return (text: string): string =>
    Array.from(text.normalize("NFC").replace(/\s+/g, " ").trim(), (char) => {
      if (encodable(char)) return char
      const folded = char.normalize("NFD").replace(/\p{M}/gu, "")
      return folded !== "" && encodable(folded) ? folded : "?"
    }).join("")
}

// Long names and addresses are cut with an ellipsis instead of running over the next box.
const fitted = (text: string, font: PDFFont, size: number, width: number): string => {
  if (font.widthOfTextAtSize(text, size) <= width) return text
  let cut = text
  while (cut.length > 0 && font.widthOfTextAtSize(`${cut}…`, size) > width) cut = cut.slice(0, -1)
  return `${cut.trimEnd()}…`
}

interface Fonts {
  readonly regular: PDFFont
  readonly bold: PDFFont
  readonly clean: (text: string) => string
}

interface Field {
  readonly label: string
  readonly lines: ReadonlyArray<string>
  readonly bold?: boolean
  readonly alignRight?: boolean
}

const padding = 3

// A box of the slip: its label in small type at the top, its value lines under it.
const drawField = (page: PDFPage, fonts: Fonts, x: number, top: number, width: number, field: Field): void => {
  const label = fitted(fonts.clean(field.label), fonts.regular, labelSize, width - 2 * padding)
  page.drawText(label, { x: x + padding, y: top - 8, size: labelSize, font: fonts.regular })
  const font = field.bold === true ? fonts.bold : fonts.regular
  field.lines.forEach((line, index) => {
    const text = fitted(fonts.clean(line), font, valueSize, width - 2 * padding)
    const textWidth = font.widthOfTextAtSize(text, valueSize)
    const textX = field.alignRight === true ? x + width - padding - textWidth : x + padding
    page.drawText(text, { x: textX, y: top - 19 - index * 11, size: valueSize, font })
  })
}

const drawRow = (
  page: PDFPage,
  fonts: Fonts,
  top: number,
  height: number,
  cells: ReadonlyArray<{ readonly width: number; readonly field: Field }>
): number => {
  let x = margin
  for (const cell of cells) {
    drawField(page, fonts, x, top, cell.width, cell.field)
    if (x > margin) page.drawLine({ start: { x, y: top }, end: { x, y: top - height }, thickness: 0.5, color: ink })
    x += cell.width
  }
  const bottom = top - height
  page.drawLine({
    start: { x: margin, y: bottom },
    end: { x: margin + slipWidth, y: bottom },
    thickness: 0.5,
    color: ink
  })
  return bottom
}

// What the payer reads first on a slip the bank does not know: it cannot be paid, and why.
const registrationNotices = {
  pending: ["BOLETO AINDA NÃO REGISTRADO NO BANCO", "Aguarde o registro para pagá-lo: até lá, nenhum banco o aceita."],
  rejected: ["BOLETO RECUSADO PELO BANCO", "Este boleto não foi registrado e não pode ser pago."]
} as const

/** Renders a boleto as PDF bytes; the same document always gives the same bytes. */
export const render = async (document: BoletoDocument): Promise<Uint8Array> => {
  checkDocument(document)
  // No timestamps of the moment of rendering, so that the output depends on the document only.
  const pdf = await PDFDocument.create({ updateMetadata: false })
  pdf.setTitle(`Boleto ${document.documentNumber}`)
  pdf.setSubject("Boleto bancário")
  pdf.setCreator("Fatura")
  pdf.setProducer("Fatura")
  pdf.setLanguage("pt-BR")
  pdf.setCreationDate(new Date(`${document.issuedAt}T12:00:00Z`))

  const regular = await pdf.embedFont(StandardFonts.Helvetica)
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
  const fonts: Fonts = { regular, bold, clean: writable(regular) }
  const page = pdf.addPage([pageWidth, pageHeight])

  let top = pageHeight - margin
  if (document.registration !== "registered") {
    const [title, explanation] = registrationNotices[document.registration]
    page.drawText(title, { x: margin, y: top - 14, size: 14, font: bold })
    page.drawText(explanation, { x: margin, y: top - 28, size: valueSize, font: regular })
    top -= 44
  }
  page.drawText("Ficha de Compensação", { x: margin, y: top - 10, size: 8, font: regular })

  // Header: the bank's code in its own box, then the digitable line the payer types in.
  const headerTop = top - 16
  const headerBottom = headerTop - 24
  const bankCode = fonts.clean(document.bankCode)
  page.drawText(bankCode, { x: margin + padding, y: headerBottom + 7, size: 15, font: bold })
  const bankBoxRight = margin + Math.max(60, bold.widthOfTextAtSize(bankCode, 15) + 2 * padding)
  page.drawLine({
    start: { x: bankBoxRight, y: headerTop },
    end: { x: bankBoxRight, y: headerBottom },
    thickness: 1.5,
    color: ink
  })
  const line = Boleto.formatDigitableLine(document.digitableLine)
  const lineSize = 12
  page.drawText(line, {
    x: margin + slipWidth - padding - bold.widthOfTextAtSize(line, lineSize),
    y: headerBottom + 7,
    size: lineSize,
    font: bold
  })
  page.drawLine({
    start: { x: margin, y: headerBottom },
    end: { x: margin + slipWidth, y: headerBottom },
    thickness: 1.5,
    color: ink
  })

  const leftWidth = slipWidth - rightColumnWidth
  const right = (field: Field) => ({ width: rightColumnWidth, field: { alignRight: true, ...field } })
  let y = headerBottom
  y = drawRow(page, fonts, y, 26, [
    { width: leftWidth, field: { label: "Local de pagamento", lines: ["Pagável em qualquer banco até o vencimento"] } },
    right({ label: "Vencimento", lines: [formatDate(document.dueDate)], bold: true })
  ])
  y = drawRow(page, fonts, y, 26, [
    {
      width: leftWidth,
      field: { label: "Beneficiário", lines: [`${document.payee.name} — CNPJ ${document.payee.document}`] }
    },
    right({ label: "Nosso número", lines: [document.ourNumber] })
  ])
  y = drawRow(page, fonts, y, 26, [
    { width: leftWidth / 3, field: { label: "Data do documento", lines: [formatDate(document.issuedAt)] } },
    { width: leftWidth / 3, field: { label: "Número do documento", lines: [document.documentNumber] } },
    { width: leftWidth / 3, field: { label: "Espécie", lines: ["R$"] } },
    right({ label: "Valor do documento", lines: [Cents.formatBRL(Cents.make(document.amount))], bold: true })
  ])
  y = drawRow(page, fonts, y, 26, [
    {
      width: slipWidth,
      field: {
        label: "Instruções (texto de responsabilidade do beneficiário)",
        lines: ["Não receber após o vencimento."]
      }
    }
  ])
  y = drawRow(page, fonts, y, 37, [
    {
      width: slipWidth,
      field: {
        label: "Pagador",
        lines: [`${document.payer.name} — CPF/CNPJ ${document.payer.document}`, document.payer.address]
      }
    }
  ])
  page.drawRectangle({
    x: margin,
    y,
    width: slipWidth,
    height: headerBottom - y,
    borderColor: ink,
    borderWidth: 1
  })

  const authentication = "Autenticação mecânica"
  page.drawText(authentication, {
    x: margin + slipWidth - regular.widthOfTextAtSize(authentication, labelSize),
    y: y - 9,
    size: labelSize,
    font: regular
  })

  const barcode = await pdf.embedPng(await barcodePng(document.barcode))
  const barcodeWidth = (barcode.width / pixelsPerModule) * narrowBar
  // The image starts with its quiet zone, so it sits a quiet zone left of the slip's edge to line the bars up with it.
  page.drawImage(barcode, {
    x: margin - quietZoneModules * narrowBar,
    y: y - 14 - barcodeHeight,
    width: barcodeWidth,
    height: barcodeHeight
  })

  if (document.pixQrCode !== null) {
    const qrCode = await pdf.embedPng(await qrCodePng(document.pixQrCode))
    const qrTop = y - 14
    page.drawImage(qrCode, {
      x: margin + slipWidth - qrCodeSide,
      y: qrTop - qrCodeSide,
      width: qrCodeSide,
      height: qrCodeSide
    })
    const label = "Pague com Pix"
    page.drawText(label, {
      x: margin + slipWidth - qrCodeSide - padding - bold.widthOfTextAtSize(label, valueSize),
      y: qrTop - qrCodeSide / 2,
      size: valueSize,
      font: bold
    })
  }

  return pdf.save()
}
