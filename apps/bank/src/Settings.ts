// The local bank's settings, from the environment: where it keeps its files, where it listens, how often it acts,
// and who its client is. The bank itself is fixed: code 999, which no real bank uses.
import { resolve } from "node:path"

export interface Settings {
  readonly dir: string
  readonly host: string
  readonly sftpPort: number
  readonly simulatorPort: number
  readonly cycleMillis: number
  readonly client: { readonly document: string; readonly name: string }
}

export const bank = {
  code: "999",
  name: "Banco Local Fatura",
  ispb: "99999999",
  user: "fatura",
  agency: "0001",
  account: "1234567",
  accountDigit: "8",
  agreement: "0012345",
  wallet: "1"
} as const

const port = (name: string, fallback: number, env: NodeJS.ProcessEnv) => {
  const value = env[name]?.trim()
  if (value === undefined || value === "") return fallback
  const number = Number(value)
  if (!Number.isInteger(number) || number < 0 || number > 65_535) throw new Error(`${name}=${value}: not a port`)
  return number
}

export const fromEnvironment = (env: NodeJS.ProcessEnv = process.env): Settings => {
  const cycle = Number(env.FATURA_BANK_CYCLE_MILLIS?.trim() || "1000")
  if (!Number.isInteger(cycle) || cycle < 50) throw new Error("FATURA_BANK_CYCLE_MILLIS: at least 50 milliseconds")
  return {
    dir: resolve(env.FATURA_BANK_DIR?.trim() || ".bank"),
    host: env.FATURA_BANK_HOST?.trim() || "127.0.0.1",
    sftpPort: port("FATURA_BANK_SFTP_PORT", 2222, env),
    simulatorPort: port("FATURA_BANK_SIMULATOR_PORT", 4010, env),
    cycleMillis: cycle,
    client: {
      document: env.FATURA_BANK_COMPANY_CNPJ?.trim() || "11222333000181",
      name: env.FATURA_BANK_COMPANY_NAME?.trim() || "Fatura Pagamentos Ltda"
    }
  }
}
