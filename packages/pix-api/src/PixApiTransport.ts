// How the adapter reaches the PSP: HTTPS with mutual TLS, the client presenting the certificate its PSP issued and
// trusting no CA but the one given. The PEM files are read once, when the layer is built.
import { X509Certificate } from "node:crypto"
import { readFile } from "node:fs/promises"
import { createSecureContext } from "node:tls"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Effect, Layer, Schema } from "effect"
import type { HttpClient } from "effect/http"
import type { PixApiSettings } from "./PixApiSettings.js"

/** A PEM file of the settings that cannot be read, holds no PEM, or does not go with the others. */
export class PemFileUnreadable extends Schema.TaggedError<PemFileUnreadable>()("PemFileUnreadable", {
  path: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `cannot use the PEM file ${this.path}: ${this.reason}`
  }
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

const readPem = (path: string) =>
  Effect.tryPromise({
    try: () => readFile(path, "utf8"),
    catch: (error) => new PemFileUnreadable({ path, reason: reasonOf(error) })
  }).pipe(
    Effect.filterOrFail(
      (text) => text.includes("-----BEGIN "),
      () => new PemFileUnreadable({ path, reason: "it holds no PEM block (-----BEGIN …)" })
    )
  )

const certificateBlock = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g

/** Fails, naming `path`, unless `pem` holds certificates and each of them parses. */
const certificates = (path: string, pem: string) =>
  Effect.try({
    try: () => {
      const blocks = pem.match(certificateBlock) ?? []
      if (blocks.length === 0) throw new Error("it holds no certificate (-----BEGIN CERTIFICATE-----)")
      for (const block of blocks) new X509Certificate(block)
    },
    catch: (error) => new PemFileUnreadable({ path, reason: reasonOf(error) })
  })

/** Fails, naming the key's path, when OpenSSL will not take the key with its certificate (unreadable, or not its key). */
const keyOf = (path: string, cert: string, key: string) =>
  Effect.try({
    try: () => void createSecureContext({ cert, key }),
    catch: (error) => new PemFileUnreadable({ path, reason: reasonOf(error) })
  })

/**
 * An `HttpClient` for the PSP: Node's `https` with an agent that presents `settings.certificate` and its key, trusts
 * only `settings.ca`, and keeps connections alive between calls.
 */
export const layer = (settings: PixApiSettings): Layer.Layer<HttpClient.HttpClient, PemFileUnreadable> =>
  Layer.unwrap(
    Effect.gen(function* () {
      const [cert, key, ca] = yield* Effect.all([
        readPem(settings.certificate),
        readPem(settings.certificateKey),
        readPem(settings.ca)
      ])
      // Checked now, so that a wrong file is told at start, by name, rather than as a failed handshake later.
      yield* certificates(settings.ca, ca)
      yield* certificates(settings.certificate, cert)
      yield* keyOf(settings.certificateKey, cert, key)
      return NodeHttpClient.layerNodeHttpOptions({ cert, key, ca, keepAlive: true })
    })
  )
