// A proxy between a client under test and a Fatura server that holds every answer the client gets to the OpenAPI
// document the server serves. The client runs as it would against the server itself (its own process included); what
// the document does not tell is kept as a problem for the test to fail on.
import { createServer, request as httpRequest, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib"
import * as ContractCheck from "./ContractCheck.js"

export interface ContractProxy {
  /** Where the client goes instead of the server. */
  readonly url: string
  /** Each answer the document does not tell, with why, in the order they came. */
  readonly problems: () => ReadonlyArray<string>
  readonly close: () => Promise<void>
}

const headerMap = (headers: IncomingHttpHeaders) =>
  new Map(
    Object.entries(headers).flatMap(([name, value]) =>
      value === undefined ? [] : [[name, Array.isArray(value) ? value.join(", ") : value] as const]
    )
  )

const bytesOf = (stream: NodeJS.ReadableStream) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    stream.on("data", (chunk: Buffer) => chunks.push(chunk))
    stream.once("end", () => resolve(Buffer.concat(chunks)))
    stream.once("error", reject)
  })

/** The body the server meant: what the document describes is the representation before any content-encoding. */
const decoded = (body: Buffer, encoding: string | undefined) => {
  switch (encoding) {
    case "gzip":
      return gunzipSync(body)
    case "deflate":
      return inflateSync(body)
    case "br":
      return brotliDecompressSync(body)
    default:
      return body
  }
}

/** A proxy to `upstream` (a server's base URL), checking against the document at `upstream`/openapi.json. */
export const startContractProxy = async (upstream: string): Promise<ContractProxy> => {
  const served = await fetch(new URL("/openapi.json", upstream))
  if (!served.ok) throw new Error(`${upstream}/openapi.json answered ${served.status}`)
  const { check } = ContractCheck.make((await served.json()) as Record<string, unknown>)
  const target = new URL(upstream)
  const problems: Array<string> = []

  const server = createServer(async (incoming, outgoing) => {
    try {
      const body = await bytesOf(incoming)
      const answer = await new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>(
        (resolve, reject) => {
          const forwarded = httpRequest(
            {
              host: target.hostname,
              port: target.port,
              method: incoming.method,
              path: incoming.url,
              headers: { ...incoming.headers, host: target.host }
            },
            (response) =>
              bytesOf(response).then(
                (bytes) => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: bytes }),
                reject
              )
          )
          forwarded.once("error", reject)
          forwarded.end(body)
        }
      )
      try {
        check({
          method: incoming.method ?? "GET",
          target: incoming.url ?? "/",
          status: answer.status,
          headers: headerMap(answer.headers),
          body: decoded(answer.body, answer.headers["content-encoding"])
        })
      } catch (error) {
        problems.push(error instanceof Error ? error.message : String(error))
      }
      const { "transfer-encoding": _chunked, connection: _connection, ...headers } = answer.headers
      const bodiless = incoming.method === "HEAD" || answer.status === 204 || answer.status === 304
      outgoing.writeHead(answer.status, bodiless ? headers : { ...headers, "content-length": answer.body.length })
      outgoing.end(answer.body)
    } catch (error) {
      problems.push(`the proxy could not reach ${upstream}: ${String(error)}`)
      outgoing.destroy()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    problems: () => [...problems],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
