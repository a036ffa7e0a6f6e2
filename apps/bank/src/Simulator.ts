// The bank's simulator over HTTP (JSON), for what happens outside a bank's files: a payer paying a boleto by its
// digitable line or barcode, a registration the bank rejects, a transfer it fails or the receiving bank returns; and
// a switch that makes its SFTP server slow to acknowledge a remessa. What it changes is answered in the next retorno,
// as anything else the bank does.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import * as Barcode from "./Barcode.js"
import { type Book, keyOf } from "./Book.js"
import { payBoleto, returnTransfer, writeOff } from "./Clearing.js"
import { occurrences, rejectionReasons } from "./Occurrences.js"

export interface SimulatorOptions {
  readonly host: string
  readonly port: number
  readonly bankCode: string
  /** Runs `change` on the book and saves it. */
  readonly change: <A>(change: (book: Book) => A) => A
  /** Makes the SFTP server wait `ms` before it acknowledges a remessa it took (0: at once). */
  readonly slowReceipts: (ms: number) => void
  readonly today: () => { readonly date: string; readonly creditOn: string }
}

export interface Simulator {
  readonly url: string
  readonly close: () => Promise<void>
}

const readJson = async (request: IncomingMessage): Promise<Record<string, unknown>> => {
  const chunks: Array<Buffer> = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  const text = Buffer.concat(chunks).toString("utf8")
  if (text.trim() === "") return {}
  const parsed: unknown = JSON.parse(text)
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new SyntaxError("not an object")
  return parsed as Record<string, unknown>
}

const send = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { "content-type": "application/json" })
  response.end(JSON.stringify(body))
}

const optionalCents = (value: unknown): number | undefined | null =>
  value === undefined ? undefined : Number.isSafeInteger(value) && (value as number) > 0 ? (value as number) : null

export const start = (options: SimulatorOptions): Promise<Simulator> => {
  const routes: Record<string, (body: Record<string, unknown>, id?: string) => readonly [number, unknown]> = {
    "POST /switches": (body) => {
      const delay = body.receipt_delay_ms
      if (!Number.isSafeInteger(delay) || (delay as number) < 0 || (delay as number) > 600_000) {
        return [400, { error: "receipt_delay_ms: milliseconds, 0 to 600000" }]
      }
      options.slowReceipts(delay as number)
      return [200, { receipt_delay_ms: delay }]
    },
    "GET /boletos": () => [200, options.change((book) => Object.values(book.boletos))],
    "GET /transfers": () => [200, options.change((book) => book.transfers)],
    "POST /boletos/pay": (body) => {
      const given = body.digitable_line ?? body.barcode
      const barcode = typeof given === "string" ? Barcode.barcodeOf(given) : null
      const read = barcode === null ? null : Barcode.read(barcode)
      const amount = optionalCents(body.amount)
      if (read === null || amount === null) {
        return [400, { error: "a digitable_line or barcode with right check digits, and amount in cents if any" }]
      }
      if (read.bankCode !== options.bankCode) return [404, { error: `a boleto of bank ${read.bankCode}, not this one` }]
      const ourNumber = Barcode.ourNumberOf(read.freeField)
      const { date, creditOn } = options.today()
      const { paid, boleto } = options.change((book) => payBoleto(book, ourNumber, amount, date, creditOn))
      if (boleto === undefined) return [404, { error: `no boleto registered with our number ${ourNumber}` }]
      if (!paid) return [409, { error: `the boleto is ${boleto.status}` }]
      return [200, { our_number: ourNumber, paid_amount: boleto.paidAmount, status: boleto.status }]
    },
    "POST /boletos/write-off": (body) => {
      if (typeof body.our_number !== "string") return [400, { error: "our_number" }]
      const ourNumber = body.our_number
      const { writtenOff, boleto } = options.change((book) => writeOff(book, ourNumber, options.today().date))
      if (boleto === undefined) return [404, { error: `no boleto registered with our number ${ourNumber}` }]
      if (!writtenOff) return [409, { error: `the boleto is ${boleto.status}` }]
      return [200, { our_number: ourNumber, status: boleto.status }]
    },
    "POST /registrations/reject": (body) => {
      const reason = body.reason ?? "99"
      const key = typeof body.our_number === "string" ? body.our_number : optionalCents(body.amount)
      if (key === undefined || key === null || typeof reason !== "string" || !(reason in rejectionReasons)) {
        return [400, { error: "our_number or amount, and a reason of table C047" }]
      }
      options.change((book) => {
        book.rules.rejectRegistration[typeof key === "string" ? keyOf(key) : String(key)] = reason
      })
      return [201, { reject: String(key), reason }]
    },
    "POST /transfers/fail": (body) => {
      const occurrence = body.occurrence ?? "AN"
      const key = typeof body.reference === "string" ? body.reference : optionalCents(body.amount)
      if (key === undefined || key === null || typeof occurrence !== "string" || !(occurrence in occurrences)) {
        return [400, { error: "reference or amount, and an occurrence of table G059" }]
      }
      options.change((book) => {
        book.rules.failTransfer[String(key)] = occurrence
      })
      return [201, { fail: String(key), occurrence }]
    },
    "POST /transfers/return": (_, id) => {
      const { returned, transfer } = options.change((book) => returnTransfer(book, id ?? ""))
      if (transfer === undefined) return [404, { error: `no transfer ${id}` }]
      if (!returned) return [409, { error: `the transfer is ${transfer.status}` }]
      return [200, transfer]
    }
  }
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://bank")
    const returning = /^\/transfers\/([^/]+)\/return$/.exec(url.pathname)
    const key = returning === null ? `${request.method} ${url.pathname}` : `${request.method} /transfers/return`
    const route = routes[key]
    if (route === undefined) return send(response, 404, { error: `no route ${request.method} ${url.pathname}` })
    readJson(request).then(
      (body) => {
        const [status, answer] = route(body, returning?.[1])
        send(response, status, answer)
      },
      () => send(response, 400, { error: "the body is not a JSON object" })
    )
  })
  return new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port, options.host, () => {
      const { port } = server.address() as AddressInfo
      resolve({
        url: `http://${options.host}:${port}`,
        close: () =>
          new Promise((done) => {
            server.close(() => done())
            server.closeAllConnections()
          })
      })
    })
  })
}
