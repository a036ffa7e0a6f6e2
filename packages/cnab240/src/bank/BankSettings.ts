// The settings of a bank reached by CNAB 240 files over SFTP (FATURA_BANK=cnab240): the platform's account and
// cobrança agreement at the bank, the bank's SFTP server with the key Fatura signs in with and the host key it pins,
// and how often the files are exchanged. The local bank (apps/bank) prints them as export lines.
import { Config, Duration, Effect, Option, Schema } from "effect"
import type * as Cobranca from "../Cobranca.js"

export interface Sftp {
  readonly host: string
  readonly port: number
  readonly user: string
  /** The path of the private key Fatura signs in with. */
  readonly keyPath: string
  /** The bank's host key, as `SHA256:` and its fingerprint: a server that shows another is not the bank. */
  readonly hostKey: string
}

export interface BankSettings {
  readonly agreement: Cobranca.Agreement
  readonly sftp: Sftp
  readonly exchangeInterval: Duration.Duration
}

const digits = (name: string, length: { readonly min: number; readonly max: number }) =>
  Config.schema(
    Schema.String.check(
      Schema.isPattern(new RegExp(`^\\d{${length.min},${length.max}}$`), {
        expected: `${length.min} to ${length.max} digits`
      })
    ),
    name
  )

/** The settings, from FATURA_BANK_*: each one a bank adapter cannot do without is required. */
export const config: Config.Config<BankSettings> = Config.all({
  agreement: Config.all({
    bankCode: digits("FATURA_BANK_CODE", { min: 3, max: 3 }),
    bankName: Config.String("FATURA_BANK_NAME"),
    companyDocument: digits("FATURA_BANK_COMPANY_CNPJ", { min: 14, max: 14 }),
    companyName: Config.String("FATURA_BANK_COMPANY_NAME"),
    agreement: Config.String("FATURA_BANK_AGREEMENT"),
    agency: digits("FATURA_BANK_AGENCY", { min: 1, max: 5 }),
    agencyDigit: Config.String("FATURA_BANK_AGENCY_DIGIT").pipe(Config.withDefault("")),
    account: digits("FATURA_BANK_ACCOUNT", { min: 1, max: 12 }),
    accountDigit: Config.String("FATURA_BANK_ACCOUNT_DIGIT"),
    wallet: digits("FATURA_BANK_WALLET", { min: 1, max: 1 })
  }),
  sftp: Config.all({
    host: Config.String("FATURA_BANK_SFTP_HOST"),
    port: Config.Port("FATURA_BANK_SFTP_PORT").pipe(Config.withDefault(22)),
    user: Config.String("FATURA_BANK_SFTP_USER"),
    keyPath: Config.String("FATURA_BANK_SFTP_KEY"),
    hostKey: Config.schema(
      Schema.String.check(Schema.isPattern(/^SHA256:[A-Za-z0-9+/]{43}$/, { expected: "SHA256:<fingerprint>" })),
      "FATURA_BANK_SFTP_HOST_KEY"
    )
  }),
  exchangeInterval: Config.Duration("FATURA_BANK_EXCHANGE_INTERVAL").pipe(Config.withDefault(Duration.minutes(1)))
})

/**
 * Whether a bank is reached by its files (`FATURA_BANK=cnab240`), with `config`'s settings then; none for the
 * default, `sandbox`, whose stand-ins a program provides itself.
 */
export const chosen = Effect.gen(function* () {
  const bank = yield* Config.Literals(["sandbox", "cnab240"], "FATURA_BANK").pipe(
    Config.withDefault("sandbox" as const)
  )
  return bank === "cnab240" ? Option.some(yield* config) : Option.none<BankSettings>()
})
