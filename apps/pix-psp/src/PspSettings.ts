// What the PSP is told by its environment: where it keeps its state, where it listens, and the knobs a test turns
// (token lifetime, refund delay). Everything has a default, so `pnpm pix-psp` needs none of them.
import { resolve } from "node:path"
import { Config, Context, Effect, Layer, Schema } from "effect"

export interface Settings {
  /** Absolute path of the state directory: certificates, keys and client credentials. */
  readonly dir: string
  /** Where the HTTPS server listens; port 0 takes any free port (the printed settings say which). */
  readonly host: string
  readonly port: number
  readonly tokenTtlSeconds: number
  /** How long a refund stays EM_PROCESSAMENTO before it is settled. */
  readonly refundDelayMs: number
  /** Merchant name and city written in the BR Codes (ASCII, at most 25 and 15 characters). */
  readonly merchantName: string
  readonly merchantCity: string
  /** The CNPJ of the client (the receiving user), as the webhook's `GET` and a charge's `recebedor` say it. */
  readonly merchantCnpj: string
  /** The client's address, as a charge with a due date names its `recebedor`: street, state (UF) and CEP. */
  readonly merchantStreet: string
  readonly merchantState: string
  readonly merchantPostalCode: string
}

/** The PSP always listens on loopback: it is a development tool, and its server certificate names only loopback. */
export const host = "127.0.0.1"

const whole = (name: string, fallback: number, minimum: number, maximum: number) =>
  Config.schema(Schema.Int.check(Schema.isBetween({ minimum, maximum })), name).pipe(Config.withDefault(fallback))

export class PspSettings extends Context.Service<PspSettings, Settings>()("@fatura/pix-psp/PspSettings") {
  /** Reads PIX_PSP_* from the environment; a relative PIX_PSP_DIR is taken from the current directory. */
  static readonly fromEnvironment = Effect.gen(function* () {
    const dir = yield* Config.String("PIX_PSP_DIR").pipe(Config.withDefault(".pix-psp"))
    return {
      dir: resolve(dir),
      host,
      port: yield* whole("PIX_PSP_PORT", 8443, 0, 65_535),
      tokenTtlSeconds: yield* whole("PIX_PSP_TOKEN_TTL_SECONDS", 3600, 1, 86_400),
      refundDelayMs: yield* whole("PIX_PSP_REFUND_DELAY_MS", 500, 0, 3_600_000),
      merchantName: yield* Config.String("PIX_PSP_MERCHANT_NAME").pipe(Config.withDefault("FATURA LOCAL")),
      merchantCity: yield* Config.String("PIX_PSP_MERCHANT_CITY").pipe(Config.withDefault("SAO PAULO")),
      merchantCnpj: yield* Config.String("PIX_PSP_MERCHANT_CNPJ").pipe(Config.withDefault("12345678000195")),
      merchantStreet: yield* Config.String("PIX_PSP_MERCHANT_STREET").pipe(
        Config.withDefault("Avenida Paulista, 1000")
      ),
      merchantState: yield* Config.String("PIX_PSP_MERCHANT_UF").pipe(Config.withDefault("SP")),
      merchantPostalCode: yield* Config.String("PIX_PSP_MERCHANT_CEP").pipe(Config.withDefault("01310100"))
    } satisfies Settings
  })

  static readonly layer = (settings: Settings) => Layer.succeed(PspSettings, settings)
}
