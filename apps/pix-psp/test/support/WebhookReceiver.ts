// A client's webhook endpoint for the tests: a plain HTTP server on loopback that records what the PSP posts, holds
// each notification's body to the API Pix's callback, and can be told to fail a number of deliveries first.
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { ApiPixContract } from "./ApiPixContract.js"

export interface Delivery {
  readonly path: string
  readonly body: any
  /** The status the receiver answered. */
  readonly status: number
}

export class WebhookReceiver {
  readonly deliveries: Array<Delivery> = []
  /** How many more deliveries about each txid to fail. */
  private readonly failures = new Map<string, number>()

  private constructor(
    private readonly server: Server,
    /** Where the webhook is, as given to `PUT /webhook/{chave}`; the PSP posts to `<url>/pix`. */
    readonly url: string
  ) {}

  static start(contract?: ApiPixContract): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | undefined
    const server = createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8")
        let body: unknown
        try {
          body = JSON.parse(text)
        } catch {
          body = text
        }
        const txid = (body as { pix?: Array<{ txid?: string }> })?.pix?.[0]?.txid ?? ""
        const failuresLeft = receiver?.failures.get(txid) ?? 0
        if (failuresLeft > 0) receiver?.failures.set(txid, failuresLeft - 1)
        const status = failuresLeft > 0 ? 500 : 200
        contract?.checkNotification(body)
        receiver?.deliveries.push({ path: request.url ?? "", body, status })
        response.writeHead(status).end()
      })
    })
    return new Promise((resolve) => {
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        receiver = new WebhookReceiver(server, `http://127.0.0.1:${port}/webhook`)
        resolve(receiver)
      })
    })
  }

  /** Answers 500 to the next `count` deliveries about the charge `txid` (and only those, whatever else arrives). */
  failFor(txid: string, count: number) {
    this.failures.set(txid, count)
  }

  /** Every pix of every delivery answered 200, in the order received. */
  get notifiedPix(): ReadonlyArray<any> {
    return this.deliveries.filter((delivery) => delivery.status === 200).flatMap((delivery) => delivery.body?.pix ?? [])
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()))
  }
}
