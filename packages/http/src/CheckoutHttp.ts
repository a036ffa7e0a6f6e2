// The hosted checkout page's route, `GET /checkout/{secureId}?token=…` (SPEC 11.3), behind the checkout token.
import { Invoices } from "@fatura/application"
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import QRCode from "qrcode"
import * as CheckoutPage from "./CheckoutPage.js"
import type * as RoutePolicy from "./RoutePolicy.js"

const htmlResponse = (status: number, nonce: string, body: string) =>
  HttpServerResponse.text(body, {
    status,
    contentType: "text/html; charset=utf-8",
    headers: {
      "content-security-policy": CheckoutPage.contentSecurityPolicy(nonce),
      // The URL carries the checkout token: it must not leave in a Referer header, nor stay in a shared cache.
      "referrer-policy": "no-referrer",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY"
    }
  })

/** The pix code as an SVG image, drawn by a QR library at the error correction bank apps read best. */
const qrImage = (text: string) =>
  Effect.promise(() => QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 4 })).pipe(
    Effect.map((svg) => `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`)
  )

const page = Effect.gen(function* () {
  const invoices = yield* Invoices
  const params = yield* HttpRouter.params
  const search = yield* HttpServerRequest.ParsedSearchParams
  const token = typeof search.token === "string" ? search.token : ""
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64")
  return yield* invoices.checkout(params.secureId ?? "", token).pipe(
    Effect.flatMap(({ invoice, company, publicToken }) =>
      Effect.gen(function* () {
        const pixQrImage =
          invoice.status === "pending" && invoice.pix !== null ? yield* qrImage(invoice.pix.qrCode) : null
        const body = CheckoutPage.render({
          invoice,
          merchantName: company.fantasyName,
          publicToken,
          checkoutToken: token,
          sandboxThreeDSecure: company.isActive3ds && invoice.mode === "test",
          pixQrImage,
          nonce
        })
        return htmlResponse(200, nonce, body)
      })
    ),
    Effect.catchTags({
      InvoiceNotFound: () =>
        Effect.succeed(
          htmlResponse(
            404,
            nonce,
            CheckoutPage.message(nonce, "Cobrança não encontrada", "Confira o link que a loja enviou a você.")
          )
        ),
      StorageUnavailable: () =>
        Effect.succeed(
          htmlResponse(
            503,
            nonce,
            CheckoutPage.message(
              nonce,
              "Serviço indisponível",
              "Não foi possível abrir a cobrança agora. Tente de novo em instantes."
            )
          )
        )
    })
  )
})

export const path = "/checkout/:secureId"

/** The page is the payer's: opened by the invoice's checkout token, and it says itself that an invoice was not found. */
export const route: RoutePolicy.Route = {
  method: "GET",
  path,
  policy: { access: "checkoutToken", callsProviders: false, takesPayload: false, page: true }
}

export const layer = HttpRouter.add("GET", path, page)
