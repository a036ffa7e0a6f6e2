// A merchant's postback endpoint on loopback, for tests: records what arrives and answers what each path is told to.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"

export interface Arrival {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

export const startReceiver = async () => {
  const arrivals: Array<Arrival> = []
  const answers = new Map<string, Array<number>>()
  const server: Server = createServer((request, response) => {
    let body = ""
    request.setEncoding("utf8")
    request.on("data", (chunk: string) => {
      body += chunk
    })
    request.on("end", () => {
      const path = request.url ?? "/"
      arrivals.push({ path, headers: request.headers, body })
      const script = answers.get(path) ?? []
      const status = script.length > 0 ? script.shift()! : 200
      // A redirect points somewhere the sender must not go.
      response.writeHead(status, status >= 300 && status < 400 ? { location: "/redirected" } : {}).end("ok")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    /** The statuses the next arrivals at `path` get, in order; 200 after that. */
    answer: (path: string, statuses: Array<number>) => answers.set(path, statuses),
    at: (path: string) => arrivals.filter((arrival) => arrival.path === path),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>

/** Just after a timestamp of the contract (microseconds) in a Date (milliseconds): the instant it is due. */
export const dueAt = (timestamp: string) => new Date(Date.parse(timestamp) + 1)
