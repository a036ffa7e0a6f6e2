// The Node HTTP server under the routes, with the time limits of SPEC 10 (headers within 10 s, the whole request
// within 30 s: 408), the contract's JSON body and an `X-Request-Id` on what Node answers by itself before any route
// runs (a request it cannot parse, headers too large or too slow, a CONNECT), and a close that lets the requests in
// flight finish (SPEC 11.2). The `Host` header is left to the edge, which answers a request without one, with two or
// with one that names no host like any other 400: Node's `headers` keeps only the first `Host`, so the edge reads the
// raw header lines.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { Duplex } from "node:stream"

export const headersTimeoutMs = 10_000
export const requestTimeoutMs = 30_000

const clientErrors: Record<string, readonly [status: number, reason: string, code: string, message: string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, "Request Timeout", "request_timeout", "the request was not received in time"],
  HPE_HEADER_OVERFLOW: [431, "Request Header Fields Too Large", "invalid_request", "the request headers are too large"]
}
const malformed = [400, "Bad Request", "invalid_request", "the request could not be parsed"] as const

/**
 * Where the parser gave up and why, in its own fixed words (`Invalid method encountered`), which never quote the
 * request: the one issue of the request as a whole, at the root path.
 */
const parseIssue = (error: NodeJS.ErrnoException & { readonly reason?: string; readonly bytesParsed?: number }) => {
  const where = error.bytesParsed === undefined ? "" : ` at byte ${error.bytesParsed}`
  const why = error.reason === undefined ? "" : `: ${error.reason.charAt(0).toLowerCase()}${error.reason.slice(1)}`
  return { path: "", message: `could not be parsed${where}${why}` }
}

/** A whole response written on the socket, then closed: Node has no request object for these to answer through. */
const answerOnSocket = (socket: Duplex, status: number, reason: string, body: Readonly<Record<string, unknown>>) => {
  const json = JSON.stringify(body)
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(json)}\r\n` +
      `x-request-id: ${crypto.randomUUID()}\r\nconnection: close\r\n\r\n${json}`
  )
}

const answerClientError = (error: NodeJS.ErrnoException, socket: Duplex) => {
  const started = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true
  if (error.code === "ECONNRESET" || !socket.writable || started) {
    socket.destroy()
    return
  }
  const [status, reason, code, message] = clientErrors[error.code ?? ""] ?? malformed
  answerOnSocket(
    socket,
    status,
    reason,
    status === 400 ? { code, message, issues: [parseIssue(error)] } : { code, message }
  )
}

/** A proxy tunnel (CONNECT) is not something this server offers: the answer an unknown route gets. */
const answerConnect = (_request: IncomingMessage, socket: Duplex) =>
  answerOnSocket(socket, 404, "Not Found", { code: "not_found", message: "no such route" })

/**
 * On `close` (a stop, SPEC 11.2) every connection is to end after the response it is working on: the responses still
 * to be written say `Connection: close`, so clients that keep connections alive come back to a closed port instead of
 * holding the server open with new requests.
 */
const closeConnectionsAfterTheirResponse = (server: Server) => {
  let closing = false
  const unanswered = new Set<ServerResponse>()
  server.on("request", (_request, response: ServerResponse) => {
    if (closing) {
      response.shouldKeepAlive = false
      return
    }
    unanswered.add(response)
    response.once("close", () => unanswered.delete(response))
  })
  const close = server.close.bind(server)
  server.close = (callback?: (error?: Error) => void) => {
    closing = true
    for (const response of unanswered) if (!response.headersSent) response.shouldKeepAlive = false
    close(callback)
    server.closeIdleConnections()
    return server
  }
}

export const create = (): Server => {
  const server = createServer({
    headersTimeout: headersTimeoutMs,
    requestTimeout: requestTimeoutMs,
    // How often Node looks for requests past those limits; its default of 30 s would let them run far over.
    connectionsCheckingInterval: 1_000,
    // Node's own answer to a missing Host is a bare 400; the edge answers it in the contract's terms instead.
    requireHostHeader: false
  })
  server.on("clientError", answerClientError)
  server.on("connect", answerConnect)
  // An `Expect` other than 100-continue would get Node's bare 417; it asks for nothing the API offers, so the
  // request is answered as if it had not been sent (RFC 9110 allows either), in the contract's own terms.
  server.on("checkExpectation", (request, response) => server.emit("request", request, response))
  closeConnectionsAfterTheirResponse(server)
  return server
}
