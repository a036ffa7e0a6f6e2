// Who may call the PSP: its PKI, made once and reused; mutual TLS on the API Pix routes (and only there); the OAuth2
// client-credentials grant, and tokens that are used, expire and are renewed.
import { X509Certificate } from "node:crypto"
import { readFileSync, rmSync, statSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import * as Certificates from "../src/Certificates.js"
import { fileNames } from "../src/PspState.js"
import { ApiPixClient } from "./support/ApiPixClient.js"
import { ApiPixContract } from "./support/ApiPixContract.js"
import { chargeRequest, newTxid } from "./support/Charges.js"
import { freshDir, startPsp, type TestPsp } from "./support/TestPsp.js"

let contract: ApiPixContract

beforeAll(async () => {
  contract = await ApiPixContract.load()
})
afterEach(() => {
  expect(contract.problems).toEqual([])
})

/** Every file of a state directory: its content and when it was last written. */
const snapshot = (dir: string) =>
  Object.fromEntries(
    Object.values(fileNames).map((file) => {
      const path = join(dir, file)
      return [file, { content: readFileSync(path, "utf8"), modified: statSync(path).mtimeMs }]
    })
  )

describe("the PSP's certificates", () => {
  it("are made on first start and reused, with the credentials, on every later one", async () => {
    const dir = freshDir()
    const first = await startPsp({ dir })
    const made = snapshot(dir)
    await first.stop()

    for (const key of [fileNames.caKey, fileNames.serverKey, fileNames.clientKey, fileNames.signingKey]) {
      expect(statSync(join(dir, key)).mode & 0o777).toBe(0o600)
    }
    const ca = new X509Certificate(first.state.ca.certificate)
    const server = new X509Certificate(first.state.server.certificate)
    expect(server.subjectAltName).toContain("IP Address:127.0.0.1")
    expect(server.subjectAltName).toContain("DNS:localhost")
    expect(server.verify(ca.publicKey)).toBe(true)
    expect(new X509Certificate(first.state.client.certificate).verify(ca.publicKey)).toBe(true)

    const second = await startPsp({ dir })
    try {
      expect(snapshot(dir)).toEqual(made)
      expect(second.state.credentials).toEqual(first.state.credentials)
      // A client set up from the first start's printed settings goes on working.
      const client = new ApiPixClient(
        second.baseUrl,
        {
          ca: first.state.ca.certificate,
          certificate: { cert: first.state.client.certificate, key: first.state.client.key }
        },
        contract
      )
      const token = await client.authenticate(first.state.credentials.clientId, first.state.credentials.clientSecret)
      expect(token.status).toBe(200)
      expect((await client.get(`/cob/${newTxid()}`)).status).toBe(404)
      client.close()
    } finally {
      await second.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe("mutual TLS", () => {
  let psp: TestPsp
  let foreign: Certificates.KeyPair

  beforeAll(async () => {
    psp = await startPsp()
    foreign = await Effect.runPromise(
      Effect.flatMap(Certificates.authority("Some other CA"), (otherCa) =>
        Certificates.issue(otherCa, "client", "intruder")
      )
    )
  })
  afterAll(() => psp?.stop())

  const clients = () => ({
    withoutCertificate: psp.anonymousClient(contract),
    withForeignCertificate: new ApiPixClient(
      psp.baseUrl,
      { ca: psp.state.ca.certificate, certificate: { cert: foreign.certificate, key: foreign.key } },
      contract
    )
  })

  it("refuses the token and the API Pix routes to a client without a certificate, or with another CA's", async () => {
    // Each client makes several connections: the later ones resume its TLS session, where Node says a client without
    // a certificate is `authorized`; the PSP must refuse it there too.
    const valid = await psp.authenticatedClient()
    for (const [kind, client] of Object.entries(clients())) {
      const token = await client.authenticate(psp.state.credentials.clientId, psp.state.credentials.clientSecret)
      expect([kind, token.status, token.json().error]).toEqual([kind, 401, "invalid_client"])
      // Even with a token that is valid, got by the real client.
      for (const answer of [
        await client.get(`/cob/${newTxid()}`, { bearer: valid.token ?? "" }),
        await client.put(`/cob/${newTxid()}`, chargeRequest(psp.state.credentials.pixKey), {
          bearer: valid.token ?? ""
        }),
        await client.get("/pix/E99999999202001011200abcdefghijk", { bearer: valid.token ?? "" })
      ]) {
        expect([kind, answer.status]).toEqual([kind, 403])
        expect(answer.json()).toMatchObject({ type: "https://pix.bcb.gov.br/api/v2/error/AcessoNegado" })
      }
      client.close()
    }
    valid.close()
  })

  it("lets anyone reach the locations, the JWKS and the simulator", async () => {
    const client = await psp.authenticatedClient(contract)
    const txid = newTxid()
    const charge = (await client.put(`/cob/${txid}`, chargeRequest(psp.state.credentials.pixKey))).json()
    client.close()
    for (const [kind, anyone] of Object.entries(clients())) {
      expect([kind, (await anyone.get(`https://${charge.location}`)).status]).toEqual([kind, 200])
      expect([kind, (await anyone.get("/.well-known/jwks.json")).status]).toEqual([kind, 200])
      expect([kind, (await anyone.get("/simulator/switches")).status]).toEqual([kind, 200])
      anyone.close()
    }
  })
})

describe("OAuth2 client credentials", () => {
  let psp: TestPsp
  const ttlSeconds = 2

  beforeAll(async () => {
    psp = await startPsp({ tokenTtlSeconds: ttlSeconds })
  })
  afterAll(() => psp?.stop())

  it("grants a bearer token to the client with its secret, and nothing to anyone else", async () => {
    const client = psp.client(contract)
    const { clientId, clientSecret } = psp.state.credentials
    const granted = await client.authenticate(clientId, clientSecret)
    expect(granted.status).toBe(200)
    expect(granted.headers["cache-control"]).toBe("no-store")
    expect(granted.json()).toEqual({
      access_token: expect.any(String),
      token_type: "Bearer",
      expires_in: ttlSeconds,
      scope: "cob.write cob.read cobv.write cobv.read pix.write pix.read webhook.write webhook.read"
    })
    expect((await client.authenticate(clientId, "wrong")).json()).toMatchObject({ error: "invalid_client" })
    expect((await client.authenticate("someone", clientSecret)).status).toBe(401)
    const wrongGrant = await client.send("POST", "/oauth/token", {
      form: { grant_type: "password" },
      headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}` },
      bearer: null
    })
    expect([wrongGrant.status, wrongGrant.json().error]).toEqual([400, "unsupported_grant_type"])
    client.close()
  })

  it("answers 401 to an API Pix call without a token or with an unknown one", async () => {
    const client = psp.client(contract)
    for (const bearer of [null, "not-a-token"]) {
      const answer = await client.get(`/cob/${newTxid()}`, { bearer })
      expect(answer.status).toBe(401)
      expect(answer.headers["www-authenticate"]).toMatch(/^Bearer /)
      expect(answer.json()).toMatchObject({ status: 401 })
    }
    client.close()
  })

  it("holds a token to its scopes", async () => {
    const client = psp.client(contract)
    const { clientId, clientSecret } = psp.state.credentials
    expect((await client.authenticate(clientId, clientSecret, "cob.read")).json().scope).toBe("cob.read")
    expect((await client.get(`/cob/${newTxid()}`)).status).toBe(404)
    const write = await client.put(`/cob/${newTxid()}`, chargeRequest(psp.state.credentials.pixKey))
    expect(write.status).toBe(403)
    expect(write.json()).toMatchObject({ type: "https://pix.bcb.gov.br/api/v2/error/AcessoNegado" })
    expect((await client.authenticate(clientId, clientSecret, "cob.read boleto.write")).json().error).toBe(
      "invalid_scope"
    )
    client.close()
  })

  it("uses a token while it lives, refuses it once it expired, and works again with a new one", async () => {
    const client = psp.client(contract)
    const { clientId, clientSecret } = psp.state.credentials
    const lifetime = ttlSeconds * 1000
    // A use answered within the token's lifetime of asking for it proves the token valid; on a machine too busy for
    // that, ask again rather than conclude anything.
    let grantedAt = 0
    for (let attempt = 0; ; attempt++) {
      const asked = Date.now()
      await client.authenticate(clientId, clientSecret)
      grantedAt = Date.now()
      const used = await client.get(`/cob/${newTxid()}`)
      if (Date.now() - asked < lifetime) {
        expect(used.status).toBe(404)
        break
      }
      if (attempt === 5) throw new Error("the machine is too busy to use a token within its lifetime")
    }
    // Once its lifetime has passed since it was granted, the token is refused.
    await new Promise((resolve) => setTimeout(resolve, grantedAt + lifetime + 50 - Date.now()))
    const expired = await client.get(`/cob/${newTxid()}`)
    expect(expired.status).toBe(401)
    expect(expired.json().detail).toMatch(/expirou/)
    await client.authenticate(clientId, clientSecret)
    expect((await client.get(`/cob/${newTxid()}`)).status).toBe(404)
    client.close()
  })
})
