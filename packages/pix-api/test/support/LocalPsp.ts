// The adapter against the local PSP of apps/pix-psp, started in this process for one test file. The PSP's own test
// support is imported by its path: it is test code of a private app, not part of any package's exports, and the
// dependency rule (scripts/check-dependencies.mjs) reads only `src`. Every exchange the adapter has with the PSP goes
// through `Exchanges`, which holds it to the Central Bank's API Pix document (ApiPixContract) and keeps a list of
// them for the test to count.
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { PixChargeRequest, PixDueChargeRequest } from "@fatura/application"
import { AutoWithdrawal, Cents, type Company, Document, FeePlan, type PixKey, Timestamp } from "@fatura/domain"
import { Effect, Redacted, Result } from "effect"
import { HttpClient, type HttpClientRequest, type HttpClientResponse, UrlParams } from "effect/http"
import * as Certificates from "../../../../apps/pix-psp/src/Certificates.js"
import { ApiPixClient } from "../../../../apps/pix-psp/test/support/ApiPixClient.js"
import { ApiPixContract } from "../../../../apps/pix-psp/test/support/ApiPixContract.js"
import { saoPauloDay } from "../../../../apps/pix-psp/test/support/Charges.js"
import { startPsp, type TestPsp } from "../../../../apps/pix-psp/test/support/TestPsp.js"
import * as PixApi from "../../src/index.js"

export { eventually } from "../../../../apps/pix-psp/test/support/Eventually.js"
export { WebhookReceiver } from "../../../../apps/pix-psp/test/support/WebhookReceiver.js"
export { ApiPixClient, ApiPixContract, saoPauloDay, startPsp, type TestPsp }

/** The adapter's settings for the PSP's account, as the PSP prints them, with `overrides`. */
export const settingsOf = (psp: TestPsp, overrides: Partial<PixApi.PixApiSettings> = {}): PixApi.PixApiSettings => ({
  apiUrl: psp.baseUrl,
  oauthUrl: `${psp.baseUrl}/oauth/token`,
  clientId: psp.state.credentials.clientId,
  clientSecret: Redacted.make(psp.state.credentials.clientSecret),
  certificate: psp.state.paths.client,
  certificateKey: psp.state.paths.clientKey,
  ca: psp.state.paths.ca,
  pixKey: psp.state.credentials.pixKey,
  ...overrides
})

/** One exchange as the adapter had it. */
export interface Exchange {
  readonly method: string
  readonly path: string
  readonly status: number
  readonly requestBody: string | undefined
  readonly responseBody: string
}

const bodyText = (request: HttpClientRequest.HttpClientRequest) =>
  request.body._tag === "Uint8Array" ? new TextDecoder().decode(request.body.body) : undefined

/** Checks and keeps every exchange of the clients it transforms. */
export class Exchanges {
  readonly all: Array<Exchange> = []

  constructor(readonly contract: ApiPixContract) {}

  /** For `PixApi.layer(settings, { transformClient })`. */
  readonly transformClient = (client: HttpClient.HttpClient): HttpClient.HttpClient =>
    HttpClient.transform(client, (effect, request) =>
      Effect.tap(effect, (response) =>
        response.text.pipe(
          Effect.flatMap((text) => Effect.sync(() => this.record(request, response, text))),
          // An answer whose body cannot be read is the adapter's to report, not the recorder's.
          Effect.ignore
        )
      )
    )

  private record(
    request: HttpClientRequest.HttpClientRequest,
    response: HttpClientResponse.HttpClientResponse,
    text: string
  ) {
    const url = new URL(request.url)
    const query = UrlParams.toString(request.urlParams)
    const target = `${url.pathname}${url.search}${query === "" ? "" : `${url.search === "" ? "?" : "&"}${query}`}`
    const requestBody = bodyText(request)
    // The body carries its media type; the transport writes it as the header.
    const contentType = request.body._tag === "Empty" ? undefined : request.body.contentType
    this.contract.check({
      method: request.method,
      target,
      requestHeaders: { ...request.headers, ...(contentType === undefined ? {} : { "content-type": contentType }) },
      ...(requestBody === undefined ? {} : { requestBody }),
      status: response.status,
      responseHeaders: response.headers,
      responseBody: text
    })
    this.all.push({
      method: request.method,
      path: url.pathname,
      status: response.status,
      requestBody,
      responseBody: text
    })
  }

  /** How many tokens were asked for. */
  get tokenRequests(): number {
    return this.all.filter((exchange) => exchange.path === "/oauth/token").length
  }

  /** The exchanges of the API Pix itself (not the token's), as `METHOD /path status`. */
  get apiCalls(): ReadonlyArray<string> {
    return this.all
      .filter((exchange) => exchange.path !== "/oauth/token")
      .map((exchange) => `${exchange.method} ${exchange.path.replace(/\/[^/]{20,}/g, "/…")} ${exchange.status}`)
  }
}

/** The adapter for `settings`, every exchange of it going through `exchanges`. */
export const pixApi = (settings: PixApi.PixApiSettings, exchanges: Exchanges) =>
  PixApi.layer(settings, { transformClient: exchanges.transformClient })

export const company: Company.Company = {
  id: 1 as Company.CompanyId,
  cnpj: "11222333000181",
  companyType: "ltda",
  corporateReason: "Loja Exemplo Ltda",
  fantasyName: "Loja Exemplo",
  urlWebsite: "https://loja.example.com",
  email: "financeiro@loja.example.com",
  address: {
    street: "Avenida Paulista",
    number: "1000",
    city: "São Paulo",
    postalCode: "01310100",
    province: "Bela Vista",
    state: "SP"
  },
  bank: { code: "001", account: "12345", agency: "0001", digit: "6", name: "Banco do Brasil S.A.", type: "corrente" },
  autoWithdrawal: AutoWithdrawal.off,
  blocks: { system: false, processing: false, pix: false, card: false, bank_slip: false, sake: false },
  feePlan: FeePlan.defaultFeePlan,
  isCustomFeePlan: false,
  pixKey: "financeiro@loja.example.com",
  isActive3ds: false,
  createdAt: Timestamp.fromEpochMicros(1_780_000_000_000_000n),
  updatedAt: Timestamp.fromEpochMicros(1_780_000_000_000_000n)
}

const documentOf = (text: string) => Result.getOrThrow(Document.parse(text))

/** A charge request as the application makes one for a new pix invoice. */
export const chargeRequest = (
  options: { readonly secureId?: string; readonly cents?: number; readonly document?: string } = {}
): PixChargeRequest => {
  const secureId = options.secureId ?? crypto.randomUUID()
  const now = Timestamp.fromEpochMicros(BigInt(Date.now()) * 1000n)
  return {
    company,
    pixKey: company.pixKey as PixKey.PixKey,
    amount: Cents.make(options.cents ?? 12_345),
    txid: PixApi.txidOf(secureId),
    expiresAt: Timestamp.plusSeconds(now, 3600),
    expiresIn: 3600,
    payer: { name: "Maria Souza", document: documentOf(options.document ?? "529.982.247-25") },
    summary: "Pão de queijo (3)"
  }
}

/** A charge with a due date as the application asks for one beside a boleto: due in 10 days unless said. */
export const dueChargeRequest = (
  options: {
    readonly secureId?: string
    readonly cents?: number
    readonly document?: string
    readonly dueDate?: string
  } = {}
): PixDueChargeRequest => ({
  company,
  amount: Cents.make(options.cents ?? 15_000),
  txid: PixApi.txidOf(options.secureId ?? crypto.randomUUID()),
  dueDate: options.dueDate ?? saoPauloDay(10),
  payer: { name: "Maria Souza", document: documentOf(options.document ?? "529.982.247-25") },
  summary: "Mensalidade de março"
})

/** A client certificate and key issued by a CA that is not the PSP's, and that CA, as PEM files. */
export const foreignIdentity = () =>
  Effect.runPromise(
    Effect.gen(function* () {
      const authority = yield* Certificates.authority("Some other CA")
      const client = yield* Certificates.issue(authority, "client", "intruder")
      const dir = mkdtempSync(join(tmpdir(), "pix-api-foreign-"))
      const write = (name: string, pem: string) => {
        const path = join(dir, name)
        writeFileSync(path, pem, { mode: 0o600 })
        return path
      }
      return {
        ca: write("ca.pem", authority.certificate),
        certificate: write("client.pem", client.certificate),
        certificateKey: write("client-key.pem", client.key)
      }
    })
  )
