// Every way of not getting a usable answer from the PSP is PixProviderUnavailable, quickly and with a message that
// says what happened — a client the PSP does not know, a PSP the client does not trust, nothing listening, a PSP too
// slow, failing, limiting the client or answering what is not the API Pix — logged as a warning; a PSP that refuses
// the request with its problem details is PixProviderRefused, logged as an error; neither ever tells the client's
// secret or a token. PEM files that cannot be used stop the layer from being built.

import { writeFileSync } from "node:fs"
import { createServer, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { PixProvider, type PixProviderFailure } from "@fatura/application"
import { Duration, Effect, Layer, Logger, Redacted } from "effect"
import { HttpClient, HttpClientResponse } from "effect/http"
import * as PixApi from "../src/index.js"
import {
  ApiPixContract,
  chargeRequest,
  Exchanges,
  foreignIdentity,
  settingsOf,
  startPsp,
  type TestPsp
} from "./support/LocalPsp.js"

let contract: ApiPixContract
let psp: TestPsp
let foreign: Awaited<ReturnType<typeof foreignIdentity>>

beforeAll(async () => {
  contract = await ApiPixContract.load()
  psp = await startPsp()
  foreign = await foreignIdentity()
})
afterEach(async () => {
  await Effect.runPromise(psp.switches.change({ slowMs: 0, failing: false }))
  expect(contract.problems).toEqual([])
})
afterAll(() => psp?.stop())

interface Failure {
  readonly error: PixProviderFailure
  readonly elapsedMs: number
  readonly exchanges: Exchanges
  /** The lines logged at the level of the failure: warnings for PixProviderUnavailable, errors for PixProviderRefused. */
  readonly warnings: ReadonlyArray<string>
}

type Call<A> = (pix: PixProvider["Service"]) => Effect.Effect<A, PixProviderFailure>
type Transform = (client: HttpClient.HttpClient) => HttpClient.HttpClient

/**
 * Runs `call` with a provider for `settings` and expects it to fail with `expected` (a defect fails the test),
 * logging it at its level (a warning, or an error for a refusal) in words that tell neither the secret nor any token
 * granted.
 */
const failingWith = <A>(
  expected: PixProviderFailure["_tag"],
  call: Call<A>,
  settings: PixApi.PixApiSettings = settingsOf(psp),
  transformClient?: Transform
): Effect.Effect<Failure> => {
  const exchanges = new Exchanges(contract)
  const warnings: Array<string> = []
  const level = expected === "PixProviderRefused" ? "Error" : "Warn"
  const logger = Logger.layer([
    Logger.make(({ logLevel, message }) => {
      if (logLevel === level) warnings.push((Array.isArray(message) ? message : [message]).map(String).join(" "))
    })
  ])
  const started = performance.now()
  return PixProvider.use(call).pipe(
    Effect.flip,
    Effect.map((error) => ({ error, elapsedMs: performance.now() - started, exchanges, warnings })),
    Effect.tap(({ error }) =>
      Effect.sync(() => {
        expect(error._tag).toBe(expected)
        expect(warnings.length).toBeGreaterThan(0)
        for (const warning of warnings) expect(warning).toContain(error.message)
        const secrets = [
          Redacted.value(settings.clientSecret),
          ...exchanges.all
            .filter((exchange) => exchange.path === "/oauth/token" && exchange.status === 200)
            .map((exchange) => JSON.parse(exchange.responseBody).access_token as string)
        ]
        for (const secret of secrets) {
          expect(error.message).not.toContain(secret)
          for (const warning of warnings) expect(warning).not.toContain(secret)
        }
      })
    ),
    Effect.provide(
      PixApi.layer(settings, {
        // The exchanges recorded are the PSP's own, whatever `transformClient` makes of them afterwards.
        transformClient: (client) =>
          transformClient === undefined
            ? exchanges.transformClient(client)
            : transformClient(exchanges.transformClient(client))
      })
    ),
    Effect.provide(logger),
    Effect.orDie
  )
}

/** `call` fails with PixProviderUnavailable, logged as a warning. */
const failing = <A>(call: Call<A>, settings?: PixApi.PixApiSettings, transformClient?: Transform) =>
  failingWith("PixProviderUnavailable", call, settings, transformClient)

/** `call` fails with PixProviderRefused, logged as an error. */
const refusing = <A>(call: Call<A>, settings?: PixApi.PixApiSettings, transformClient?: Transform) =>
  failingWith("PixProviderRefused", call, settings, transformClient)

const findCharge = (pix: PixProvider["Service"]) => pix.findCharge(chargeRequest().txid)

/** A port nothing listens on: taken from the system, then let go. */
const closedPort = Effect.promise(
  () =>
    new Promise<number>((resolve) => {
      const server = createServer()
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
      })
    })
)

describe("mutual TLS", () => {
  it.live("a client whose certificate another CA issued is refused by the PSP, and the call is unavailable", () =>
    Effect.gen(function* () {
      const { error, exchanges } = yield* failing(
        findCharge,
        settingsOf(psp, { certificate: foreign.certificate, certificateKey: foreign.certificateKey })
      )
      expect(error.message).toMatch(/^the PSP answered POST \/oauth\/token with 401 invalid_client: .*certificate/)
      // Refused at the token endpoint: no API Pix call was made.
      expect(exchanges.all.map((exchange) => `${exchange.path} ${exchange.status}`)).toEqual(["/oauth/token 401"])
    })
  )

  it.live("a PSP whose certificate the given CA did not issue is not trusted, and nothing is sent to it", () =>
    Effect.gen(function* () {
      const { error, exchanges, elapsedMs } = yield* failing(findCharge, settingsOf(psp, { ca: foreign.ca }))
      expect(error.message).toMatch(/^could not reach the PSP for POST \/oauth\/token: .*certificate/i)
      expect(exchanges.all).toEqual([])
      expect(elapsedMs).toBeLessThan(2_000)
    })
  )
})

describe("a PSP that does not answer", () => {
  it.live("nothing listening: unavailable at once", () =>
    Effect.gen(function* () {
      const port = yield* closedPort
      const url = `https://127.0.0.1:${port}`
      const { error, elapsedMs } = yield* failing(
        findCharge,
        settingsOf(psp, { apiUrl: url, oauthUrl: `${url}/oauth/token` })
      )
      expect(error.message).toMatch(/^could not reach the PSP for POST \/oauth\/token: .*ECONNREFUSED/)
      expect(elapsedMs).toBeLessThan(2_000)
    })
  )

  it.live(
    "silent (a connection accepted, never answered): callers at once share one token request, and its timeout",
    () =>
      Effect.gen(function* () {
        const connections: Array<Socket> = []
        const silent = createServer((socket) => void connections.push(socket))
        yield* Effect.acquireRelease(
          Effect.promise(() => new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve))),
          () =>
            Effect.promise(() => {
              for (const socket of connections) socket.destroy()
              return new Promise<void>((resolve) => silent.close(() => resolve()))
            })
        )
        const address = silent.address()
        const url = `https://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
        const { error, elapsedMs, warnings } = yield* failing(
          // Five calls at once, each left to run to its end.
          (pix) =>
            Effect.forEach(
              Array.from({ length: 5 }),
              () => Effect.flip(Effect.andThen(findCharge(pix), Effect.die("a silent PSP answered"))),
              {
                concurrency: "unbounded"
              }
            ).pipe(
              Effect.flatMap((errors) => {
                expect(new Set(errors.map((each) => each.message)).size).toBe(1)
                return Effect.fail(errors[0]!)
              })
            ),
          settingsOf(psp, { apiUrl: url, oauthUrl: `${url}/oauth/token`, timeout: Duration.millis(300) })
        )
        expect(warnings).toHaveLength(5)
        expect(error.message).toBe("the PSP did not answer POST /oauth/token within 300 ms")
        // One token request for the five, and one timeout: five requests in turn would take 1 500 ms at least.
        expect(connections).toHaveLength(1)
        expect(elapsedMs).toBeGreaterThanOrEqual(300)
        expect(elapsedMs).toBeLessThan(1_500)
      }).pipe(Effect.scoped)
  )

  it.live("slower than the timeout: unavailable once the timeout has passed, not before, nor long after", () =>
    Effect.gen(function* () {
      yield* psp.switches.change({ slowMs: 5_000 })
      const { error, elapsedMs, exchanges } = yield* failing(
        (pix) => pix.charge(chargeRequest()),
        settingsOf(psp, { timeout: Duration.millis(400) })
      )
      expect(error.message).toMatch(/^the PSP did not answer PUT \/cob\/\w+ within 400 ms$/)
      // The token endpoint is not slowed: the call waited for the timeout alone.
      expect(exchanges.tokenRequests).toBe(1)
      expect(elapsedMs).toBeGreaterThanOrEqual(400)
      expect(elapsedMs).toBeLessThan(1_500)
    })
  )

  it.live("failing (503): unavailable, with what the PSP said", () =>
    Effect.gen(function* () {
      yield* psp.switches.change({ failing: true })
      const { error, exchanges } = yield* failing(findCharge)
      expect(error.message).toMatch(/^the PSP answered GET \/cob\/\w+ with 503 Serviço Indisponível — /)
      expect(exchanges.apiCalls).toEqual(["GET /cob/… 503"])
    })
  )
})

describe("an answer the adapter cannot use", () => {
  it.live("a request the PSP refuses (400): refused, the PSP's title, detail and violations its reason", () =>
    Effect.gen(function* () {
      const { error, exchanges } = yield* refusing(
        (pix) => pix.charge(chargeRequest()),
        settingsOf(psp, { pixKey: "someone-else@example.com" })
      )
      if (error._tag !== "PixProviderRefused") throw new Error("not refused")
      expect(error.reason).toMatch(
        /^Cobrança inválida\. — .+ \(cob\.chave: A chave não pertence a este usuário recebedor\.\)$/
      )
      expect(error.message).toMatch(/^the PSP refused PUT \/cob\/\w+ \(400\): Cobrança inválida\. — /)
      expect(exchanges.apiCalls).toEqual(["PUT /cob/… 400"])
    })
  )

  /** A client whose answers to the API Pix (not to the token endpoint) are replaced by `answer`. */
  const answering = (answer: () => Response) => (client: HttpClient.HttpClient) =>
    HttpClient.transform(client, (effect, request) =>
      request.url.endsWith("/oauth/token")
        ? effect
        : Effect.map(effect, () => HttpClientResponse.fromWeb(request, answer()))
    )

  it.live("an answer that is not JSON, or not what the API Pix says: unavailable, saying so", () =>
    Effect.gen(function* () {
      const html = yield* failing(
        findCharge,
        settingsOf(psp),
        answering(
          () => new Response("<html>maintenance</html>", { status: 200, headers: { "content-type": "text/html" } })
        )
      )
      expect(html.error.message).toMatch(
        /^the PSP's answer to GET \/cob\/\w+ \(200\) is not JSON: <html>maintenance<\/html>$/
      )

      const wrong = yield* failing(
        findCharge,
        settingsOf(psp),
        answering(() => Response.json({ txid: "x", status: "PAGA", valor: { original: "12,00" } }))
      )
      expect(wrong.error.message).toMatch(/^the PSP's answer to GET \/cob\/\w+ \(200\) is not what the API Pix says: /)
    })
  )

  it.live("a token answer that is not an OAuth2 token: unavailable, without repeating what it held", () =>
    Effect.gen(function* () {
      const { error } = yield* failing(findCharge, settingsOf(psp), (client) =>
        HttpClient.transform(client, (effect, request) =>
          request.url.endsWith("/oauth/token")
            ? Effect.map(effect, () =>
                HttpClientResponse.fromWeb(request, Response.json({ access_token: "tok-123", expires_in: "soon" }))
              )
            : effect
        )
      )
      expect(error.message).toBe("the PSP's answer to POST /oauth/token (200) is not an OAuth2 token (RFC 6749 §5.1)")
    })
  )

  it.live("too many requests (429), or an error page (500): unavailable, with the status", () =>
    Effect.gen(function* () {
      const limited = yield* failing(
        findCharge,
        settingsOf(psp),
        answering(() => new Response("", { status: 429, headers: { "retry-after": "30" } }))
      )
      expect(limited.error.message).toMatch(/^the PSP answered GET \/cob\/\w+ with 429$/)
      const broken = yield* failing(
        findCharge,
        settingsOf(psp),
        answering(() => new Response("Internal Server Error", { status: 500 }))
      )
      expect(broken.error.message).toMatch(/^the PSP answered GET \/cob\/\w+ with 500$/)
    })
  )

  const problem = (status: number, title: string) =>
    Response.json(
      { type: "https://pix.bcb.gov.br/api/v2/error/AcessoNegado", title, status, detail: "Não." },
      { status, headers: { "content-type": "application/problem+json" } }
    )

  it.live("a lookup the PSP refuses with problem details (403): refused, not none", () =>
    Effect.gen(function* () {
      const { error } = yield* refusing(
        findCharge,
        settingsOf(psp),
        answering(() => problem(403, "Acesso Negado"))
      )
      expect(error).toMatchObject({ _tag: "PixProviderRefused", reason: "Acesso Negado — Não." })
    })
  )

  it.live("a 4xx that is no API Pix answer (an HTML 403 of a proxy, a 404 without problem details): unavailable", () =>
    Effect.gen(function* () {
      const proxy = yield* failing(
        findCharge,
        settingsOf(psp),
        answering(
          () => new Response("<html>Forbidden</html>", { status: 403, headers: { "content-type": "text/html" } })
        )
      )
      expect(proxy.error.message).toMatch(/^the PSP answered GET \/cob\/\w+ with 403$/)
      const wrongUrl = yield* failing(
        findCharge,
        settingsOf(psp),
        answering(() => new Response("Not Found", { status: 404 }))
      )
      expect(wrongUrl.error.message).toMatch(/^the PSP answered GET \/cob\/\w+ with 404$/)
    })
  )

  it.live("a 401 with problem details even after a new token: unavailable, asked again later", () =>
    Effect.gen(function* () {
      const { error, exchanges } = yield* failing(
        findCharge,
        settingsOf(psp),
        answering(() => problem(401, "Não Autorizado"))
      )
      expect(error.message).toMatch(/^the PSP answered GET \/cob\/\w+ with 401 Não Autorizado — Não\.$/)
      // The token was renewed once, between the two calls.
      expect(exchanges.tokenRequests).toBe(2)
    })
  )
})

describe("PEM files", () => {
  const buildWith = (overrides: Partial<PixApi.PixApiSettings>) =>
    Layer.build(PixApi.layer(settingsOf(psp, overrides))).pipe(Effect.scoped, Effect.flip)

  it.live(
    "a file that is missing, holds no PEM, or a key of another certificate: the layer is not built, naming the file",
    () =>
      Effect.gen(function* () {
        const missing = join(tmpdir(), `pix-api-missing-${process.pid}.pem`)
        expect(yield* buildWith({ certificate: missing })).toMatchObject({
          _tag: "PemFileUnreadable",
          path: missing,
          reason: expect.stringContaining("ENOENT")
        })

        const notPem = join(tmpdir(), `pix-api-not-pem-${process.pid}.pem`)
        writeFileSync(notPem, "not a certificate\n")
        expect(yield* buildWith({ ca: notPem })).toMatchObject({ _tag: "PemFileUnreadable", path: notPem })

        const mismatch = yield* buildWith({ certificateKey: foreign.certificateKey })
        expect(mismatch).toMatchObject({ _tag: "PemFileUnreadable", path: foreign.certificateKey })
        expect(mismatch.message).toMatch(/key values mismatch/)
      })
  )
})
