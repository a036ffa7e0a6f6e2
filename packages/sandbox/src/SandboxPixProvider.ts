// The sandbox pix provider: builds the BR Code locally from the company's pix key, as a PSP would hand it back. It
// keeps no charges and receives no pix (sandbox invoices are paid by the sandbox helper), and returns at once what it
// is asked to return: sandbox money is not real. It makes no charges with a due date: a sandbox boleto is a boleto
// alone.
import { Clock, PixProvider } from "@fatura/application"
import { PixBrCode } from "@fatura/domain"
import { Effect, Layer, Option } from "effect"

export const layer = Layer.succeed(
  PixProvider,
  PixProvider.of({
    txidOf: PixBrCode.staticTxidOf,
    dueCharges: null,
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
