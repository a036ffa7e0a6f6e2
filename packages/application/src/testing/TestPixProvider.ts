// A stand-in pix provider: the BR Code a PSP would hand back, built locally from the company's key. The same
// request always gets the same code. It receives no pix, and returns at once what it is asked to return.
import { PixBrCode } from "@fatura/domain"
import { Effect, Layer, Option } from "effect"
import * as Clock from "../Clock.js"
import { PixProvider } from "../PixProvider.js"

export const layer = Layer.succeed(
  PixProvider,
  PixProvider.of({
    txidOf: PixBrCode.staticTxidOf,
    charge: ({ company, pixKey, amount, txid }) =>
      Effect.sync(() => ({
        qrCode: PixBrCode.build({
          pixKey,
          merchantName: company.fantasyName,
          merchantCity: company.address.city,
          amount,
          txid
        })
      })),
    findCharge: () => Effect.succeed(Option.none()),
    findReceived: () => Effect.succeed(Option.none()),
    listReceived: () => Effect.succeed([]),
    requestReturn: () => Effect.map(Clock.now, (at) => ({ _tag: "Returned", at }) as const),
    findReturn: () => Effect.succeed(Option.none()),
    registerWebhook: () => Effect.void
  })
)
