// How files reach the bank and come back: its SFTP server, through ssh2-sftp-client, signed in with Fatura's key and
// the server's host key pinned. A remessa is uploaded as `<name>.part` and renamed once complete, so that the bank
// never takes a file half written; one already there is not uploaded again, which is how a remessa whose upload a dead
// process left unrecorded reaches the bank once.
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { Context, Effect, Layer, Schema } from "effect"
import SftpClient from "ssh2-sftp-client"
import type { Sftp } from "./BankSettings.js"

/** The bank's server did not answer as asked: the exchange is tried again at the next interval. */
export class BankUnavailable extends Schema.TaggedError<BankUnavailable>()("BankUnavailable", {
  reason: Schema.String
}) {}

export interface Session {
  /** Uploads a remessa, unless the bank has it already. */
  readonly upload: (name: string, content: string) => Effect.Effect<"uploaded" | "present", BankUnavailable>
  /** The names of the files in the bank's `retorno` folder. */
  readonly retornos: Effect.Effect<ReadonlyArray<string>, BankUnavailable>
  readonly download: (name: string) => Effect.Effect<string, BankUnavailable>
}

export class BankTransport extends Context.Service<
  BankTransport,
  {
    /** Runs `use` over one signed-in session, closed after it. */
    readonly session: <A, E, R>(
      use: (session: Session) => Effect.Effect<A, E, R>
    ) => Effect.Effect<A, E | BankUnavailable, R>
  }
>()("@fatura/cnab240/BankTransport") {}

/** `SHA256:` and the unpadded base64 SHA-256 of a host key's blob, as OpenSSH prints a fingerprint. */
export const fingerprint = (key: Buffer): string =>
  `SHA256:${createHash("sha256").update(key).digest("base64").replace(/=+$/, "")}`

const attempt = <A>(what: string, run: () => Promise<A>) =>
  Effect.tryPromise({
    try: run,
    catch: (error) =>
      new BankUnavailable({ reason: `${what}: ${error instanceof Error ? error.message : String(error)}` })
  })

/** The transport over the bank's SFTP server. */
export const sftp = (settings: Sftp): BankTransport["Service"] =>
  BankTransport.of({
    session: (use) =>
      Effect.acquireUseRelease(
        Effect.gen(function* () {
          const privateKey = yield* attempt("the key to sign in with", async () => readFileSync(settings.keyPath))
          const client = new SftpClient("fatura-bank")
          yield* attempt(`connecting to ${settings.host}:${settings.port}`, () =>
            client.connect({
              host: settings.host,
              port: settings.port,
              username: settings.user,
              privateKey,
              readyTimeout: 10_000,
              hostVerifier: (key: Buffer) => fingerprint(key) === settings.hostKey
            })
          )
          return client
        }),
        (client) =>
          use({
            upload: (name, content) =>
              attempt(`uploading ${name}`, async () => {
                if ((await client.exists(`/remessa/${name}`)) !== false) return "present" as const
                await client.put(Buffer.from(content, "utf8"), `/remessa/${name}.part`)
                await client.rename(`/remessa/${name}.part`, `/remessa/${name}`)
                return "uploaded" as const
              }),
            retornos: attempt("listing the retornos", async () =>
              (await client.list("/retorno")).filter((entry) => entry.type === "-").map((entry) => entry.name)
            ),
            download: (name) =>
              attempt(`downloading ${name}`, async () => {
                const data = await client.get(`/retorno/${name}`)
                return Buffer.isBuffer(data) ? data.toString("utf8") : String(data)
              })
          }),
        (client) => Effect.promise(() => client.end().catch(() => false))
      )
  })

export const sftpLayer = (settings: Sftp) => Layer.succeed(BankTransport, sftp(settings))
