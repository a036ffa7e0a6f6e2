// What the adapter needs to reach the platform's one account at its PSP, and how it reads that from the environment
// (the FATURA_PIX_* names the local PSP of apps/pix-psp prints).
import { Config, Duration, Effect, Option, type Redacted, Schema } from "effect"

export interface PixApiSettings {
  /** Where the API Pix is served, e.g. `https://pix.example-psp.com.br/api/v2`; the paths (`/cob/…`) follow it. */
  readonly apiUrl: string
  /** The OAuth2 token endpoint (client credentials). */
  readonly oauthUrl: string
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted
  /** PEM file of the client certificate the PSP issued for mutual TLS. */
  readonly certificate: string
  /** PEM file of that certificate's private key. */
  readonly certificateKey: string
  /** PEM file of the CA that issued the PSP's server certificate: the only one trusted. */
  readonly ca: string
  /** The platform's pix key at the PSP: the `chave` of every charge, and the key its webhook is registered for. */
  readonly pixKey: string
  /** How long one exchange with the PSP may take, answer read; 10 s when not said. */
  readonly timeout?: Duration.Duration
  /** How many received pix to ask for per page of `GET /pix`; 100 when not said (the API Pix allows 1 to 1000). */
  readonly pageSize?: number
}

export const defaultTimeout: Duration.Duration = Duration.seconds(10)
export const defaultPageSize = 100

const httpsUrl = (name: string) =>
  Config.schema(
    Schema.String.check(
      Schema.makeFilter(
        (text: string) => {
          try {
            return new URL(text).protocol === "https:" || "must be an https URL"
          } catch {
            return "must be an absolute https URL"
          }
        },
        { expected: "an https URL" }
      )
    ),
    name
  )

const nonEmpty = (name: string) => Config.schema(Schema.NonEmptyString, name)

/** The settings from FATURA_PIX_API_URL, _OAUTH_URL, _CLIENT_ID, _CLIENT_SECRET, _CERT, _CERT_KEY, _CA, _KEY and, optionally, _TIMEOUT_MS. */
export const config: Config.Config<PixApiSettings> = Config.all({
  apiUrl: httpsUrl("FATURA_PIX_API_URL"),
  oauthUrl: httpsUrl("FATURA_PIX_OAUTH_URL"),
  clientId: nonEmpty("FATURA_PIX_CLIENT_ID"),
  clientSecret: Config.Redacted("FATURA_PIX_CLIENT_SECRET"),
  certificate: nonEmpty("FATURA_PIX_CERT"),
  certificateKey: nonEmpty("FATURA_PIX_CERT_KEY"),
  ca: nonEmpty("FATURA_PIX_CA"),
  pixKey: nonEmpty("FATURA_PIX_KEY"),
  timeout: Config.schema(
    Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 600_000 })),
    "FATURA_PIX_TIMEOUT_MS"
  ).pipe(Config.withDefault(Duration.toMillis(defaultTimeout)), Config.map(Duration.millis))
})

/**
 * Whether the API Pix is the pix provider (`FATURA_PIX_PROVIDER=bcb`), with `config`'s settings then; none for the
 * default, `sandbox`, which a program replaces with its own stand-in.
 */
export const chosen = Effect.gen(function* () {
  const provider = yield* Config.Literals(["sandbox", "bcb"], "FATURA_PIX_PROVIDER").pipe(
    Config.withDefault("sandbox" as const)
  )
  return provider === "bcb" ? Option.some(yield* config) : Option.none<PixApiSettings>()
})

/**
 * How often received pix are listed for the notifications that never came (`FATURA_PIX_RECONCILE_DELAY`, 5 minutes
 * when not said): an invoice whose notification was lost is paid at most this long after its pix.
 */
export const reconcileEvery = Config.Duration("FATURA_PIX_RECONCILE_DELAY").pipe(
  Config.withDefault(Duration.minutes(5))
)
