// Signs the payload a location serves, as the Pix security manual asks: a compact JWS (RS256) whose header names its
// key (`kid`, `x5t#S256`) and where to fetch it (`jku`, a JWKS this PSP serves on the location's own host). The JWKS
// carries the key's certificate chain (`x5c`) up to the PSP's CA.
import { createHash, createPrivateKey, createPublicKey, sign, X509Certificate } from "node:crypto"
import { Context, Effect, Layer } from "effect"
import { PspState } from "./PspState.js"

export const jwksPath = "/.well-known/jwks.json"

const base64url = (data: string | Buffer) => Buffer.from(data).toString("base64url")

export class LocationSigner extends Context.Service<
  LocationSigner,
  {
    /** The compact JWS of `payload`; `jku` is the absolute URL of the JWKS. */
    readonly sign: (payload: unknown, jku: string) => string
    readonly jwks: { readonly keys: ReadonlyArray<Record<string, unknown>> }
  }
>()("@fatura/pix-psp/LocationSigner") {
  static readonly layer = Layer.effect(
    LocationSigner,
    Effect.gen(function* () {
      const { signing, ca } = yield* PspState
      const certificate = new X509Certificate(signing.certificate)
      const thumbprint = base64url(createHash("sha256").update(certificate.raw).digest())
      const privateKey = createPrivateKey(signing.key)
      const jwk = {
        ...createPublicKey(signing.certificate).export({ format: "jwk" }),
        kid: thumbprint,
        use: "sig",
        alg: "RS256",
        x5c: [certificate.raw.toString("base64"), new X509Certificate(ca.certificate).raw.toString("base64")],
        "x5t#S256": thumbprint
      }
      return LocationSigner.of({
        sign: (payload, jku) => {
          const header = { alg: "RS256", typ: "JWS", kid: thumbprint, "x5t#S256": thumbprint, jku }
          const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`
          return `${input}.${base64url(sign("sha256", Buffer.from(input), privateKey))}`
        },
        jwks: { keys: [jwk] }
      })
    })
  )
}
