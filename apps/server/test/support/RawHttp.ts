// An HTTP/1.1 client on a bare socket, for requests that well-behaved clients refuse to send: header values with
// NUL or control bytes, repeated headers, any method, any target, any body. Each request has its own connection
// from a loopback source address of the caller's choice (the payer's side is rate-limited per address). Every answer
// is held to the OpenAPI document (`Contract`) before the caller sees it: broken input gets documented answers too.
import { connect } from "node:net"
import * as Contract from "./Contract.js"

export interface RawRequest {
  readonly method: string
  readonly target: string
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body?: Uint8Array | string | undefined
  readonly localAddress?: string | undefined
}

export interface RawReply {
  readonly status: number
  readonly headers: ReadonlyMap<string, string>
  readonly text: string
  readonly body: any
}

const decodeChunked = (payload: Buffer): Buffer => {
  const parts: Array<Buffer> = []
  let at = 0
  for (;;) {
    const lineEnd = payload.indexOf("\r\n", at)
    if (lineEnd < 0) break
    const size = Number.parseInt(payload.subarray(at, lineEnd).toString("latin1"), 16)
    if (!Number.isFinite(size) || size === 0) break
    parts.push(payload.subarray(lineEnd + 2, lineEnd + 2 + size))
    at = lineEnd + 2 + size + 2
  }
  return Buffer.concat(parts)
}

/**
 * Holds the answer to the document as the answer to the request `bytes` start with: a request line that names no
 * method and target is a request that no route answers.
 */
const checkAgainstContract = (
  bytes: Uint8Array,
  status: number,
  headers: ReadonlyMap<string, string>,
  body: Uint8Array
) => {
  const requestLine = /^([A-Za-z]+) (\S+) HTTP\/1\.[01]\r?\n/.exec(
    Buffer.from(bytes.subarray(0, 8192)).toString("latin1")
  )
  Contract.check({
    method: requestLine?.[1] ?? "GET",
    target: requestLine?.[2] ?? "*",
    status,
    headers,
    body
  })
}

/** Sends `bytes` as they are on a connection of their own and reads the one answer, until the server closes it. */
export const exchange = (
  port: number,
  bytes: Uint8Array,
  options: { readonly localAddress?: string | undefined; readonly timeoutMs?: number } = {}
): Promise<RawReply> =>
  new Promise((resolve, reject) => {
    const timeoutMs = options.timeoutMs ?? 15_000
    const socket = connect({ host: "127.0.0.1", port, localAddress: options.localAddress ?? "127.0.0.1" })
    const chunks: Array<Buffer> = []
    const timer = setTimeout(() => {
      socket.destroy()
      reject(
        new Error(
          `no answer within ${timeoutMs} ms to ${JSON.stringify(Buffer.from(bytes).subarray(0, 80).toString("latin1"))}`
        )
      )
    }, timeoutMs)
    // Written, not ended: a client that half-closes may lose its answer; `connection: close` ends the exchange.
    socket.on("connect", () => socket.write(bytes))
    socket.on("data", (chunk: Buffer) => chunks.push(chunk))
    socket.on("error", (error) => {
      clearTimeout(timer)
      reject(error)
    })
    socket.on("close", () => {
      clearTimeout(timer)
      let response = Buffer.concat(chunks)
      // Interim answers (100 Continue) come before the real one.
      while (/^HTTP\/1\.1 1\d\d /.test(response.subarray(0, 13).toString("latin1"))) {
        response = response.subarray(response.indexOf("\r\n\r\n") + 4)
      }
      const headEnd = response.indexOf("\r\n\r\n")
      if (headEnd < 0) return reject(new Error(`a response without a head: ${JSON.stringify(response.toString())}`))
      const [statusLine = "", ...lines] = response.subarray(0, headEnd).toString("latin1").split("\r\n")
      const headers = new Map<string, string>()
      for (const line of lines) {
        const colon = line.indexOf(":")
        headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim())
      }
      const rawPayload = response.subarray(headEnd + 4)
      const payload = headers.get("transfer-encoding") === "chunked" ? decodeChunked(rawPayload) : rawPayload
      const text = payload.toString("utf8")
      let parsed: unknown
      try {
        parsed = JSON.parse(text)
      } catch {
        parsed = undefined
      }
      const status = Number(statusLine.split(" ")[1])
      try {
        checkAgainstContract(bytes, status, headers, payload)
      } catch (error) {
        return reject(error)
      }
      resolve({ status, headers, text, body: parsed })
    })
  })

export const send = (port: number, request: RawRequest, timeoutMs = 15_000): Promise<RawReply> => {
  const body = request.body === undefined ? Buffer.alloc(0) : Buffer.from(request.body)
  const head = [
    `${request.method} ${request.target} HTTP/1.1`,
    "host: 127.0.0.1",
    "connection: close",
    ...request.headers.map(([name, value]) => `${name}: ${value}`),
    ...(request.body === undefined ? [] : [`content-length: ${body.length}`])
  ].join("\r\n")
  return exchange(port, Buffer.concat([Buffer.from(`${head}\r\n\r\n`, "latin1"), body]), {
    localAddress: request.localAddress,
    timeoutMs
  })
}

let nextAddress = 0

/** A loopback address different from the last few hundred, so that no one address meets the payer's rate limit. */
export const freshLoopback = () => {
  nextAddress = (nextAddress + 1) % 250
  return `127.0.1.${nextAddress + 2}`
}

/** One keep-alive connection on a bare socket, written to in pieces, whose answers are read one at a time. */
export interface RawConnection {
  /** Writes `bytes` as they are: a request, or a piece of one. */
  readonly write: (bytes: Uint8Array | string) => void
  /**
   * The next whole answer on the connection (after any interim `1xx`, which `interim` collects), held to the OpenAPI
   * document as the answer to `request` unless the route is none of the document's (a PSP's callback); fails when none
   * comes within `timeoutMs`, saying what had arrived.
   */
  readonly next: (
    request: { readonly method: string; readonly target: string },
    options?: { readonly timeoutMs?: number; readonly outsideContract?: boolean }
  ) => Promise<RawReply>
  /** The interim answers (`100 Continue`) read so far, by their status lines. */
  readonly interim: ReadonlyArray<string>
  /** Resolves when the server has closed the connection. */
  readonly closed: Promise<void>
  readonly destroy: () => void
}

export const connection = (port: number, localAddress = "127.0.0.1"): Promise<RawConnection> =>
  new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, localAddress })
    let received = Buffer.alloc(0)
    const interim: Array<string> = []
    let wake: () => void = () => {}
    const closed = new Promise<void>((done) => socket.on("close", () => done()))
    let ended = false
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      wake()
    })
    socket.on("close", () => {
      ended = true
      wake()
    })
    // A reset once the server has answered and closed is the server discarding what it would not read.
    socket.on("error", () => {})

    /** The first whole answer in what arrived, taken off it; `undefined` while it is not all there. */
    const take = (): (Omit<RawReply, "body"> & { readonly payload: Buffer }) | undefined => {
      for (;;) {
        const headEnd = received.indexOf("\r\n\r\n")
        if (headEnd < 0) return undefined
        const [statusLine = "", ...lines] = received.subarray(0, headEnd).toString("latin1").split("\r\n")
        const status = Number(statusLine.split(" ")[1])
        const headers = new Map<string, string>()
        for (const line of lines) {
          const colon = line.indexOf(":")
          headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim())
        }
        if (status >= 100 && status < 200) {
          interim.push(statusLine)
          received = received.subarray(headEnd + 4)
          continue
        }
        const length = Number(headers.get("content-length") ?? 0)
        if (received.length < headEnd + 4 + length) return undefined
        const payload = received.subarray(headEnd + 4, headEnd + 4 + length)
        received = received.subarray(headEnd + 4 + length)
        return { status, headers, text: payload.toString("utf8"), payload }
      }
    }

    const next: RawConnection["next"] = (request, { timeoutMs = 15_000, outsideContract = false } = {}) =>
      new Promise<RawReply>((answered, failed) => {
        const timer = setTimeout(() => {
          wake = () => {}
          failed(
            new Error(
              `no answer to ${request.method} ${request.target} within ${timeoutMs} ms; received ` +
                JSON.stringify(received.subarray(0, 300).toString("latin1"))
            )
          )
        }, timeoutMs)
        wake = () => {
          const reply = take()
          if (reply === undefined && !ended) return
          clearTimeout(timer)
          wake = () => {}
          if (reply === undefined) {
            return failed(new Error(`the connection closed before an answer to ${request.method} ${request.target}`))
          }
          let body: unknown
          try {
            body = JSON.parse(reply.text)
          } catch {
            body = undefined
          }
          try {
            if (!outsideContract) {
              Contract.check({ ...request, status: reply.status, headers: reply.headers, body: reply.payload })
            }
          } catch (error) {
            return failed(error)
          }
          answered({ status: reply.status, headers: reply.headers, text: reply.text, body })
        }
        wake()
      })

    socket.on("connect", () =>
      resolve({
        write: (bytes) => socket.write(bytes),
        next,
        interim,
        closed,
        destroy: () => socket.destroy()
      })
    )
    socket.once("error", reject)
  })
