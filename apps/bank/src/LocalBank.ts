// The local bank put together: its keys, its book, its SFTP server over `<dir>/files`, the cycle that acts on
// remessas and writes retornos, and the simulator. `exportLines` are the settings Fatura needs to reach it.
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import * as Book from "./Book.js"
import * as Clearing from "./Clearing.js"
import * as Keys from "./Keys.js"
import { bank, type Settings } from "./Settings.js"
import * as SftpServer from "./SftpServer.js"
import * as Simulator from "./Simulator.js"

export interface LocalBank {
  readonly filesDir: string
  readonly simulatorUrl: string
  readonly settings: ReadonlyArray<readonly [name: string, value: string]>
  /** Runs one cycle now (the timer runs them too): what a test calls to not wait for the next. */
  readonly cycle: () => ReadonlyArray<string>
  readonly stop: () => Promise<void>
}

/** São Paulo's date, time and minute (UTC−3, no daylight saving since 2019). */
const saoPaulo = (millis: number) => {
  const local = new Date(millis - 3 * 3_600_000).toISOString()
  return { date: local.slice(0, 10), time: local.slice(11, 19), minute: local.slice(0, 16).replace(/[-T:]/g, "") }
}

/** The second weekday after `date`: when a boleto paid today is credited (the bank's float, D+2). */
const creditDay = (date: string) => {
  let millis = Date.parse(`${date}T12:00:00Z`)
  for (let weekdays = 0; weekdays < 2; ) {
    millis += 86_400_000
    if (![0, 6].includes(new Date(millis).getUTCDay())) weekdays++
  }
  return new Date(millis).toISOString().slice(0, 10)
}

export const start = async (
  settings: Settings,
  log: (message: string, fields?: Record<string, unknown>) => void
): Promise<LocalBank> => {
  const filesDir = join(settings.dir, "files")
  const remessaDir = join(filesDir, "remessa")
  const retornoDir = join(filesDir, "retorno")
  mkdirSync(remessaDir, { recursive: true })
  mkdirSync(retornoDir, { recursive: true })
  const keys = Keys.ensure(join(settings.dir, "keys"))
  const book = Book.load(settings.dir)
  const change = <A>(act: (book: Book.Book) => A): A => {
    const result = act(book)
    Book.save(settings.dir, book)
    return result
  }
  const place: Clearing.Place = {
    remessaDir,
    retornoDir,
    ispb: bank.ispb,
    client: {
      bankCode: bank.code,
      document: settings.client.document,
      agreement: bank.agreement,
      agency: bank.agency,
      account: bank.account,
      accountDigit: bank.accountDigit
    },
    parties: {
      bankCode: bank.code,
      bankName: bank.name,
      clientDocument: settings.client.document,
      clientName: settings.client.name,
      agreement: bank.agreement,
      agency: bank.agency,
      account: bank.account,
      accountDigit: bank.accountDigit
    }
  }
  const clock = { now: () => saoPaulo(Date.now()) }
  // The simulator's switch, kept in memory: a restart makes the bank prompt again.
  let receiptDelayMs = 0
  const cycle = () =>
    change((current) => {
      const acted = Clearing.cycle(current, place, clock)
      for (const name of acted) log("remessa processed", { file: name })
      return acted
    })
  const sftp = await SftpServer.start({
    root: filesDir,
    host: settings.host,
    port: settings.sftpPort,
    hostKey: keys.hostPrivateKey,
    user: bank.user,
    clientPublicKey: keys.clientPublicKey,
    receiptDelayMs: () => receiptDelayMs,
    log
  })
  const simulator = await Simulator.start({
    host: settings.host,
    port: settings.simulatorPort,
    bankCode: bank.code,
    change,
    slowReceipts: (ms) => {
      receiptDelayMs = ms
    },
    today: () => {
      const { date } = saoPaulo(Date.now())
      return { date, creditOn: creditDay(date) }
    }
  })
  const timer = setInterval(() => {
    try {
      cycle()
    } catch (error) {
      log("cycle failed", { error: String(error) })
    }
  }, settings.cycleMillis)
  return {
    filesDir,
    simulatorUrl: simulator.url,
    settings: [
      ["FATURA_BANK", "cnab240"],
      ["FATURA_BANK_SFTP_HOST", settings.host],
      ["FATURA_BANK_SFTP_PORT", String(sftp.port)],
      ["FATURA_BANK_SFTP_USER", bank.user],
      ["FATURA_BANK_SFTP_KEY", keys.clientPrivateKeyPath],
      ["FATURA_BANK_SFTP_HOST_KEY", keys.hostFingerprint],
      ["FATURA_BANK_CODE", bank.code],
      ["FATURA_BANK_NAME", bank.name],
      ["FATURA_BANK_AGENCY", bank.agency],
      ["FATURA_BANK_ACCOUNT", bank.account],
      ["FATURA_BANK_ACCOUNT_DIGIT", bank.accountDigit],
      ["FATURA_BANK_AGREEMENT", bank.agreement],
      ["FATURA_BANK_WALLET", bank.wallet],
      ["FATURA_BANK_COMPANY_CNPJ", settings.client.document],
      ["FATURA_BANK_COMPANY_NAME", settings.client.name]
    ],
    cycle,
    stop: async () => {
      clearInterval(timer)
      await Promise.all([sftp.close(), simulator.close()])
    }
  }
}

/** The settings as lines a shell runs: `export NAME='value'`. */
export const exportLines = (settings: LocalBank["settings"]): ReadonlyArray<string> =>
  settings.map(([name, value]) => `export ${name}='${value.replaceAll("'", "'\\''")}'`)
