// A local bank of a test's own, in a temporary directory, on free ports; an SFTP client signed in as its client
// (ssh2's, with the host key pinned); and the simulator's routes.
import { createHash } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import ssh2 from "ssh2"
import * as LocalBank from "../../src/LocalBank.js"
import { fromEnvironment } from "../../src/Settings.js"

export interface TestBank {
  readonly bank: LocalBank.LocalBank
  readonly dir: string
  readonly env: Readonly<Record<string, string>>
  readonly logs: Array<string>
  readonly restart: () => Promise<TestBank>
  readonly stop: () => Promise<void>
}

export const startBank = async (dir = mkdtempSync(join(tmpdir(), "fatura-bank-"))): Promise<TestBank> => {
  const logs: Array<string> = []
  const bank = await LocalBank.start(
    // A cycle a test runs itself (`bank.cycle()`), not one every second under it.
    fromEnvironment({
      FATURA_BANK_DIR: dir,
      FATURA_BANK_SFTP_PORT: "0",
      FATURA_BANK_SIMULATOR_PORT: "0",
      FATURA_BANK_CYCLE_MILLIS: "3600000"
    }),
    (message, fields) => logs.push(`${message} ${JSON.stringify(fields ?? {})}`)
  )
  const env = Object.fromEntries(bank.settings)
  return {
    bank,
    dir,
    env,
    logs,
    restart: async () => {
      await bank.stop()
      return startBank(dir)
    },
    stop: async () => {
      await bank.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** An SFTP session as the bank's client, the host key checked against the fingerprint the bank printed. */
export const signIn = (
  env: Readonly<Record<string, string>>,
  privateKey: string = readFileSync(env.FATURA_BANK_SFTP_KEY!, "utf8")
): Promise<{ readonly sftp: ssh2.SFTPWrapper; readonly end: () => void }> =>
  new Promise((resolve, reject) => {
    const client = new ssh2.Client()
    client
      .on("ready", () =>
        client.sftp((error, sftp) => (error ? reject(error) : resolve({ sftp, end: () => client.end() })))
      )
      .on("error", reject)
      .connect({
        host: env.FATURA_BANK_SFTP_HOST!,
        port: Number(env.FATURA_BANK_SFTP_PORT),
        username: env.FATURA_BANK_SFTP_USER!,
        privateKey,
        hostVerifier: (key: Buffer) =>
          `SHA256:${createHash("sha256").update(key).digest("base64").replace(/=+$/, "")}` ===
          env.FATURA_BANK_SFTP_HOST_KEY
      })
  })

const promised =
  <A>(call: (done: (error: Error | null | undefined, value?: A) => void) => void) =>
  () =>
    new Promise<A>((resolve, reject) => call((error, value) => (error ? reject(error) : resolve(value as A))))

/** Uploads `content` as `remessa/<name>`, as Fatura does: written to `<name>.part`, then renamed. */
export const upload = async (sftp: ssh2.SFTPWrapper, name: string, content: string) => {
  await promised<void>((done) => sftp.writeFile(`/remessa/${name}.part`, Buffer.from(content, "utf8"), done))()
  await promised<void>((done) => sftp.rename(`/remessa/${name}.part`, `/remessa/${name}`, done))()
}

export const list = async (sftp: ssh2.SFTPWrapper, folder: string) =>
  (await promised<Array<ssh2.FileEntryWithStats>>((done) => sftp.readdir(folder, done))())
    .map((entry) => entry.filename)
    .sort()

/** A file's text: CNAB files are plain ASCII; a refusal report is UTF-8, its descriptions accented. */
export const download = async (sftp: ssh2.SFTPWrapper, path: string) =>
  (await promised<Buffer>((done) => sftp.readFile(path, done))()).toString("utf8")

/** Calls a simulator route: its status and JSON answer. */
export const simulate = async (bank: LocalBank.LocalBank, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${bank.simulatorUrl}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: (await response.json()) as any }
}
