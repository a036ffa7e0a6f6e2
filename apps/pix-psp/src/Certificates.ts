// The PSP's own small PKI, made on first start: a CA, the HTTPS server's certificate (127.0.0.1 and localhost), the
// one client certificate a client presents in mutual TLS, and the certificate of the key that signs the location
// payloads. PEM throughout, as Node's TLS and curl take them.
// @peculiar/x509 resolves its parts through tsyringe, which needs the Reflect metadata polyfill loaded first.
import "reflect-metadata"
import { randomBytes, webcrypto } from "node:crypto"
import * as x509 from "@peculiar/x509"
import { Effect } from "effect"

x509.cryptoProvider.set(webcrypto)

/** A certificate and its private key (PKCS #8), both PEM. */
export interface KeyPair {
  readonly certificate: string
  readonly key: string
}

const ecdsa = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const
/** The JWS key is RSA: RS256 is what every payer's app verifies. */
const rsa = {
  name: "RSASSA-PKCS1-v1_5",
  modulusLength: 2048,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash: "SHA-256"
} as const

const day = 86_400_000

const serialNumber = () => {
  const bytes = randomBytes(16)
  bytes[0] = (bytes[0] ?? 0) & 0x7f
  return bytes.toString("hex")
}

const privateKeyPem = async (key: webcrypto.CryptoKey) =>
  x509.PemConverter.encode(await webcrypto.subtle.exportKey("pkcs8", key), "PRIVATE KEY")

/** A self-signed CA that may sign end-entity certificates only. */
export const authority = (commonName: string): Effect.Effect<KeyPair> =>
  Effect.promise(async () => {
    const keys = await webcrypto.subtle.generateKey(ecdsa, true, ["sign", "verify"])
    const now = Date.now()
    const certificate = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: serialNumber(),
      name: `CN=${commonName}, O=Fatura development`,
      notBefore: new Date(now - day),
      notAfter: new Date(now + 3650 * day),
      keys,
      signingAlgorithm: ecdsa,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey)
      ]
    })
    return { certificate: certificate.toString("pem"), key: await privateKeyPem(keys.privateKey) }
  })

export type Purpose = "server" | "client" | "signing"

/** An end-entity certificate for one purpose, signed by `issuer`. */
export const issue = (issuer: KeyPair, purpose: Purpose, commonName: string): Effect.Effect<KeyPair> =>
  Effect.promise(async () => {
    const issuerCertificate = new x509.X509Certificate(issuer.certificate)
    const issuerKey = await webcrypto.subtle.importKey(
      "pkcs8",
      x509.PemConverter.decodeFirst(issuer.key),
      ecdsa,
      false,
      ["sign"]
    )
    const algorithm = purpose === "signing" ? rsa : ecdsa
    const keys = (await webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"])) as webcrypto.CryptoKeyPair
    const now = Date.now()
    const extensions: Array<x509.Extension> = [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      await x509.AuthorityKeyIdentifierExtension.create(issuerCertificate),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey)
    ]
    if (purpose === "server") {
      extensions.push(
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension([
          { type: "ip", value: "127.0.0.1" },
          { type: "dns", value: "localhost" }
        ])
      )
    }
    if (purpose === "client") extensions.push(new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]))
    const certificate = await x509.X509CertificateGenerator.create({
      serialNumber: serialNumber(),
      subject: `CN=${commonName}, O=Fatura development`,
      issuer: issuerCertificate.subject,
      notBefore: new Date(now - day),
      notAfter: new Date(now + 825 * day),
      publicKey: keys.publicKey,
      signingKey: issuerKey,
      signingAlgorithm: ecdsa,
      extensions
    })
    return { certificate: certificate.toString("pem"), key: await privateKeyPem(keys.privateKey) }
  })
