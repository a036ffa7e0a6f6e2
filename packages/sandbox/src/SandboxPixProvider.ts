// The sandbox pix provider: builds the BR Code locally from the company's pix key, as a PSP would hand it back.
import { PixProvider } from "@fatura/application"
import { PixBrCode } from "@fatura/domain"
import { Effect, Layer } from "effect"

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
