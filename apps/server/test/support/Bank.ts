// What the tests of a bank reached by its files (SPEC 15) share: the local bank (apps/bank) started in a directory of
// its own, acting when a test says (no timer under it); Fatura's settings for it, as the bank prints them; and the
// exchange and the withdrawal sweep run when a test says, in the test's server.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { WithdrawalSweep } from "@fatura/application"
import { BankExchange, type BankSettings } from "@fatura/cnab240"
import { Duration, Effect, Option } from "effect"
import * as LocalBank from "../../../bank/src/LocalBank.js"
import { fromEnvironment } from "../../../bank/src/Settings.js"
import type { TestApp } from "./TestApp.js"

export interface TestBank {
  readonly bank: LocalBank.LocalBank
  readonly dir: string
  readonly settings: BankSettings.BankSettings
  readonly simulate: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>
  readonly stop: () => Promise<void>
}

export const startLocalBank = async (): Promise<TestBank> => {
  const dir = mkdtempSync(join(tmpdir(), "fatura-test-bank-"))
  const bank = await LocalBank.start(
    fromEnvironment({
      FATURA_BANK_DIR: dir,
      FATURA_BANK_SFTP_PORT: "0",
      FATURA_BANK_SIMULATOR_PORT: "0",
      FATURA_BANK_CYCLE_MILLIS: "3600000"
    }),
    () => undefined
  )
  const env = Object.fromEntries(bank.settings)
  const settings: BankSettings.BankSettings = {
    agreement: {
      bankCode: env.FATURA_BANK_CODE!,
      bankName: env.FATURA_BANK_NAME!,
      companyDocument: env.FATURA_BANK_COMPANY_CNPJ!,
      companyName: env.FATURA_BANK_COMPANY_NAME!,
      agreement: env.FATURA_BANK_AGREEMENT!,
      agency: env.FATURA_BANK_AGENCY!,
      agencyDigit: "",
      account: env.FATURA_BANK_ACCOUNT!,
      accountDigit: env.FATURA_BANK_ACCOUNT_DIGIT!,
      wallet: env.FATURA_BANK_WALLET!
    },
    sftp: {
      host: env.FATURA_BANK_SFTP_HOST!,
      port: Number(env.FATURA_BANK_SFTP_PORT),
      user: env.FATURA_BANK_SFTP_USER!,
      keyPath: env.FATURA_BANK_SFTP_KEY!,
      hostKey: env.FATURA_BANK_SFTP_HOST_KEY!
    },
    exchangeInterval: Duration.minutes(1)
  }
  const simulate = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${bank.simulatorUrl}${path}`, {
      method,
      headers: { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: response.status, body: (await response.json()) as any }
  }
  return {
    bank,
    dir,
    settings,
    simulate,
    stop: async () => {
      await bank.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** One exchange of files, in the test's server: what it uploaded and read. */
export const exchange = (app: TestApp) =>
  app.run(
    Effect.flatMap(Effect.serviceOption(BankExchange.BankExchange), (found) =>
      Option.isSome(found) ? found.value.exchange : Effect.die(new Error("no bank in this server"))
    )
  )

/** One round of the withdrawal sweep: pending ones handed to the rail, the others asked about. */
export const sweepWithdrawals = (app: TestApp) => app.run(Effect.flatMap(WithdrawalSweep, (sweep) => sweep.sweep))

/** The bank acts on what it received, and writes its retornos. */
export const bankActs = (test: TestBank) => test.bank.cycle()
