// The bank's keys, made on its first start and kept in its directory: its SSH host key, whose fingerprint a client
// pins, and the key pair of its one client, whose private half the client signs in with.
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import ssh2 from "ssh2"

export interface Keys {
  readonly hostPrivateKey: string
  /** `SHA256:` and the base64 (unpadded) SHA-256 of the host key's public blob, as OpenSSH prints it. */
  readonly hostFingerprint: string
  readonly clientPublicKey: string
  readonly clientPrivateKeyPath: string
}

const pair = (dir: string, name: string) => {
  const privatePath = join(dir, name)
  if (!existsSync(privatePath)) {
    const generated = ssh2.utils.generateKeyPairSync("ed25519", { comment: `fatura-bank ${name}` })
    writeFileSync(privatePath, generated.private, { mode: 0o600 })
    writeFileSync(`${privatePath}.pub`, `${generated.public}\n`)
  }
  return {
    privatePath,
    private: readFileSync(privatePath, "utf8"),
    public: readFileSync(`${privatePath}.pub`, "utf8").trim()
  }
}

export const fingerprintOf = (publicKey: string): string => {
  const parsed = ssh2.utils.parseKey(publicKey)
  if (parsed instanceof Error) throw parsed
  const key = Array.isArray(parsed) ? parsed[0] : parsed
  return `SHA256:${createHash("sha256").update(key.getPublicSSH()).digest("base64").replace(/=+$/, "")}`
}

/** The bank's keys in `dir`, made the first time. */
export const ensure = (dir: string): Keys => {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const host = pair(dir, "host_ed25519")
  const client = pair(dir, "client_ed25519")
  return {
    hostPrivateKey: host.private,
    hostFingerprint: fingerprintOf(host.public),
    clientPublicKey: client.public,
    clientPrivateKeyPath: client.privatePath
  }
}
