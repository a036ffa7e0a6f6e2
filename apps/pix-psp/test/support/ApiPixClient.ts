// A small HTTPS client for the tests: it presents a client certificate (or none, or a foreign one), trusts the PSP's
// CA, and hands every exchange to an ApiPixContract when it is given one.
import type { IncomingHttpHeaders } from "node:http"
import { Agent, request } from "node:https"
import type { ApiPixContract } from "./ApiPixContract.js"

export interface Identity {
  /** The CA the server's certificate must chain to. */
  readonly ca: string
  /** The client's certificate and key, both PEM; none for a client without a certificate. */
  readonly certificate?: { readonly cert: string; readonly key: string }
}

export interface Answer {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly text: string
  readonly json: () => any
}

export interface SendOptions {
  readonly json?: unknown
  readonly form?: Readonly<Record<string, string>>
  readonly headers?: Readonly<Record<string, string>>
  /** The bearer token to send: the client's current one when not said, none when null. */
  readonly bearer?: string | null
}

export class ApiPixClient {
  private readonly agent: Agent
  /** The access token sent by default, set by `authenticate`. */
  token: string | undefined

  constructor(
    readonly baseUrl: string,
    identity: Identity,
    private readonly contract?: ApiPixContract
  ) {
    this.agent = new Agent({ ca: identity.ca, ...(identity.certificate ?? {}), keepAlive: false })
  }

  send(method: string, target: string, options: SendOptions = {}): Promise<Answer> {
    const body =
      options.json !== undefined
        ? JSON.stringify(options.json)
        : options.form !== undefined
          ? new URLSearchParams(options.form).toString()
          : undefined
    const bearer = options.bearer === undefined ? this.token : options.bearer
    const headers: Record<string, string> = {
      accept: "application/json",
      ...(options.json !== undefined ? { "content-type": "application/json" } : {}),
      ...(options.form !== undefined ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      ...(bearer === undefined || bearer === null ? {} : { authorization: `Bearer ${bearer}` }),
      ...options.headers
    }
    return new Promise<Answer>((resolve, reject) => {
      const outgoing = request(new URL(target, this.baseUrl), { method, headers, agent: this.agent }, (incoming) => {
        const chunks: Array<Buffer> = []
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
        incoming.on("error", reject)
        incoming.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8")
          const status = incoming.statusCode ?? 0
          this.contract?.check({
            method,
            target,
            requestHeaders: headers,
            ...(body === undefined ? {} : { requestBody: body }),
            status,
            responseHeaders: incoming.headers,
            responseBody: text
          })
          resolve({ status, headers: incoming.headers, text, json: () => JSON.parse(text) })
        })
      })
      outgoing.on("error", reject)
      outgoing.end(body)
    })
  }

  get = (target: string, options?: SendOptions) => this.send("GET", target, options)
  put = (target: string, json: unknown, options?: SendOptions) => this.send("PUT", target, { ...options, json })
  post = (target: string, json: unknown, options?: SendOptions) => this.send("POST", target, { ...options, json })
  patch = (target: string, json: unknown, options?: SendOptions) => this.send("PATCH", target, { ...options, json })
  delete = (target: string, options?: SendOptions) => this.send("DELETE", target, options)

  /** The client-credentials grant with HTTP Basic; keeps the token for the next requests when it is granted. */
  async authenticate(clientId: string, clientSecret: string, scope?: string): Promise<Answer> {
    const answer = await this.send("POST", "/oauth/token", {
      form: { grant_type: "client_credentials", ...(scope === undefined ? {} : { scope }) },
      headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}` },
      bearer: null
    })
    if (answer.status === 200) this.token = answer.json().access_token
    return answer
  }

  close() {
    this.agent.destroy()
  }
}
