// The state directory (PIX_PSP_DIR): the PKI, the client's credentials and the platform's pix key, made on first
// start and read back on every later one, so a client configured once keeps working. Keys are written 0600.
import { join } from "node:path"
import { Context, Effect, FileSystem, Layer, Schema } from "effect"
import * as Certificates from "./Certificates.js"
import * as Identifiers from "./Identifiers.js"
import { PspSettings } from "./PspSettings.js"

/** The OAuth2 client the PSP knows, and the pix key (an EVP) that its charges and webhook may name as `chave`. */
export const Credentials = Schema.Struct({
  clientId: Schema.String,
  clientSecret: Schema.String,
  pixKey: Schema.String
})
export type Credentials = typeof Credentials.Type

export const fileNames = {
  ca: "ca.pem",
  caKey: "ca-key.pem",
  server: "server.pem",
  serverKey: "server-key.pem",
  client: "client.pem",
  clientKey: "client-key.pem",
  signing: "jws.pem",
  signingKey: "jws-key.pem",
  credentials: "credentials.json"
} as const

export interface State {
  readonly dir: string
  /** Absolute path of each file of the directory. */
  readonly paths: { readonly [K in keyof typeof fileNames]: string }
  readonly ca: Certificates.KeyPair
  readonly server: Certificates.KeyPair
  readonly client: Certificates.KeyPair
  /** The RSA key, and its certificate, that sign the location payloads (JWS). */
  readonly signing: Certificates.KeyPair
  readonly credentials: Credentials
}

const decodeCredentials = Schema.decodeUnknownEffect(Schema.fromJsonString(Credentials))

const makeCredentials = Effect.fnUntraced(function* (path: string) {
  const fs = yield* FileSystem.FileSystem
  const credentials: Credentials = {
    clientId: `fatura-${Identifiers.secret(6)}`,
    clientSecret: Identifiers.secret(32),
    pixKey: crypto.randomUUID()
  }
  yield* fs.writeFileString(path, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 })
  return credentials
})

/** Reads the state in `dir`, making whatever is missing (a new CA makes new certificates under it). */
export const load = Effect.fn("PspState.load")(function* (dir: string) {
  const fs = yield* FileSystem.FileSystem
  const paths = Object.fromEntries(
    Object.entries(fileNames).map(([name, file]) => [name, join(dir, file)])
  ) as State["paths"]
  yield* fs.makeDirectory(dir, { recursive: true, mode: 0o700 })

  const read = (certificate: string, key: string) =>
    Effect.all([fs.exists(certificate), fs.exists(key)]).pipe(
      Effect.flatMap(([hasCertificate, hasKey]) =>
        hasCertificate && hasKey
          ? Effect.map(
              Effect.all([fs.readFileString(certificate), fs.readFileString(key)]),
              ([certificatePem, keyPem]) => ({ certificate: certificatePem, key: keyPem })
            )
          : Effect.succeed(undefined)
      )
    )
  const write = (certificate: string, key: string, pair: Certificates.KeyPair) =>
    Effect.andThen(
      fs.writeFileString(key, pair.key, { mode: 0o600 }),
      fs.writeFileString(certificate, pair.certificate)
    )

  const existingCa = yield* read(paths.ca, paths.caKey)
  const ca = existingCa ?? (yield* Certificates.authority("Fatura pix-psp local CA"))
  if (existingCa === undefined) yield* write(paths.ca, paths.caKey, ca)

  const endEntity = Effect.fnUntraced(function* (
    certificate: string,
    key: string,
    purpose: Certificates.Purpose,
    commonName: string
  ) {
    const existing = existingCa === undefined ? undefined : yield* read(certificate, key)
    if (existing !== undefined) return existing
    const made = yield* Certificates.issue(ca, purpose, commonName)
    yield* write(certificate, key, made)
    return made
  })
  const server = yield* endEntity(paths.server, paths.serverKey, "server", "pix-psp server")
  const client = yield* endEntity(paths.client, paths.clientKey, "client", "pix-psp client")
  const signing = yield* endEntity(paths.signing, paths.signingKey, "signing", "pix-psp payload signer")

  const credentials = (yield* fs.exists(paths.credentials))
    ? yield* Effect.flatMap(fs.readFileString(paths.credentials), decodeCredentials)
    : yield* makeCredentials(paths.credentials)
  return { dir, paths, ca, server, client, signing, credentials } satisfies State
})

export class PspState extends Context.Service<PspState, State>()("@fatura/pix-psp/PspState") {
  static readonly layer = Layer.effect(
    PspState,
    Effect.gen(function* () {
      const settings = yield* PspSettings
      return yield* load(settings.dir)
    })
  )
}
