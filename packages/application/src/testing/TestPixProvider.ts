// A stand-in pix provider: the BR Code a PSP would hand back, built locally from the company's key. The same
// request always gets the same code.
import { PixBrCode } from "@fatura/domain"
import { Effect, Layer } from "effect"
import { PixProvider } from "../PixProvider.js"

export const layer = Layer.succeed(
  PixProvider,
  PixProvider.of({
    charge: ({ company, pixKey, amount, txid }) =>
      Effect.sync(() => ({
        qrCode: PixBrCode.build({
          pixKey,
          merchantName: company.fantasyName,
          merchantCity: company.address.city,
          amount,
          txid
        })
      }))
  })
)
