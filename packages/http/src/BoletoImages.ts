// The images of a boleto's PDF, drawn by bwip-js as PNGs: the Interleaved 2 of 5 barcode of its 44 digits, at
// FEBRABAN's sizes, and a hybrid slip's pix QR code.
import { toBuffer } from "bwip-js"

// FEBRABAN's barcode: narrow bars of 1/100 in (0.72 pt), wide ones three times that (bwip-js's ITF ratio), 13 mm tall,
// which makes the 405 modules of 44 digits about 103 mm long. The quiet zones are part of the image so that it scans
// on its own; two pixels a module keep the bars sharp when a viewer smooths the image.
export const narrowBar = 0.72
export const barcodeHeight = (13 / 25.4) * 72
export const quietZoneModules = 10
export const pixelsPerModule = 2

// The pix QR code of a hybrid slip (BWIPP's default error correction, M): about 30 mm square, its quiet zone of four
// modules inside the image.
export const qrCodeSide = (30 / 25.4) * 72

export const qrCodePng = (brCode: string): Promise<Uint8Array> =>
  toBuffer({
    bcid: "qrcode",
    text: brCode,
    scale: 4,
    paddingwidth: 4,
    paddingheight: 4,
    backgroundcolor: "FFFFFF"
  })

export const barcodePng = (digits: string): Promise<Uint8Array> =>
  toBuffer({
    bcid: "interleaved2of5",
    text: digits,
    // The 44 digits already hold FEBRABAN's own check digit; ITF's optional one would make it 45.
    includecheck: false,
    includetext: false,
    height: 13,
    scale: pixelsPerModule,
    paddingwidth: quietZoneModules,
    backgroundcolor: "FFFFFF"
  })
