// The address clients reach the PSP at, known once its server listens (PIX_PSP_PORT may be 0): the API's base URL,
// and the host:port that locations and the JWKS URL are written with.
import { Context, Effect, Layer } from "effect"
import { HttpServer } from "effect/http"
import { PspSettings } from "./PspSettings.js"

export class PublicAddress extends Context.Service<
  PublicAddress,
  {
    /** `127.0.0.1:8443`: a location is `<authority>/qr/v2/<token>`, without scheme, as the spec writes it. */
    readonly authority: string
    /** `https://127.0.0.1:8443`. */
    readonly baseUrl: string
    readonly port: number
  }
>()("@fatura/pix-psp/PublicAddress") {
  static readonly layer = Layer.effect(
    PublicAddress,
    Effect.gen(function* () {
      const server = yield* HttpServer.HttpServer
      const settings = yield* PspSettings
      const port = server.address._tag === "UnixPathAddress" ? settings.port : server.address.port
      const authority = `${settings.host}:${port}`
      return PublicAddress.of({ authority, baseUrl: `https://${authority}`, port })
    })
  )
}
