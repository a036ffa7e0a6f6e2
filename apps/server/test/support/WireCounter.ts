// A TCP proxy in front of a Postgres server that records, on the wire, the statements its clients run: each simple
// Query ('Q'), and each Bind ('B') of the extended protocol — a statement prepared once and run again is Parsed once
// but Bound every time it runs — by the text its Parse gave it.
import { connect, createServer, type Server, type Socket } from "node:net"
import { Redacted } from "effect"
import type { TestDatabase } from "./TestDatabases.js"

/** The startup messages that are answered before the real startup message: SSLRequest and GSSENCRequest. */
const encryptionRequests = new Set([80_877_103, 80_877_104])

/** Reads the frontend messages of one connection as its bytes come, calling `onMessage` with each one. */
const frontendReader = (onMessage: (type: string, body: Buffer) => void) => {
  let buffered = Buffer.alloc(0)
  let started = false
  return (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk])
    while (true) {
      if (!started) {
        if (buffered.length < 8) return
        const length = buffered.readInt32BE(0)
        if (buffered.length < length) return
        started = !encryptionRequests.has(buffered.readInt32BE(4))
        buffered = buffered.subarray(length)
        continue
      }
      if (buffered.length < 5) return
      const length = buffered.readInt32BE(1)
      if (buffered.length < length + 1) return
      onMessage(String.fromCharCode(buffered[0]!), buffered.subarray(5, length + 1))
      buffered = buffered.subarray(length + 1)
    }
  }
}

/** The null-terminated strings a message's body starts with. */
const strings = (body: Buffer, count: number) => {
  const found: Array<string> = []
  let offset = 0
  while (found.length < count) {
    const end = body.indexOf(0, offset)
    found.push(body.toString("utf8", offset, end))
    offset = end + 1
  }
  return found
}

/** What opens or ends a transaction, rather than reads or writes anything. */
export const isTransactionControl = (statement: string) =>
  /^\s*(BEGIN|START TRANSACTION|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/iu.test(statement)

export interface WireCounter {
  /** The test database, its clients connected through the proxy. */
  readonly database: TestDatabase
  /** The statements run while `action` ran, by their text: the test must not run anything else meanwhile. */
  readonly statementsDuring: (action: () => Promise<unknown>) => Promise<ReadonlyArray<string>>
  readonly close: () => Promise<void>
}

/** Puts a counting proxy between a Postgres test database and its clients. */
export const countingStatements = async (database: TestDatabase): Promise<WireCounter> => {
  let recording: Array<string> | undefined
  let upstream: URL | undefined
  const sockets = new Set<Socket>()
  const server: Server = createServer((client) => {
    const target = upstream!
    sockets.add(client)
    client.on("close", () => sockets.delete(client))
    const postgres = connect(Number(target.port || 5432), target.hostname)
    // The text of each statement this connection prepared, by the statement's name ("" for the unnamed one).
    const prepared = new Map<string, string>()
    const read = frontendReader((type, body) => {
      if (type === "P") {
        const [name, text] = strings(body, 2)
        prepared.set(name!, text!)
      } else if (type === "Q") {
        recording?.push(strings(body, 1)[0]!)
      } else if (type === "B") {
        recording?.push(prepared.get(strings(body, 2)[1]!) ?? "(a statement prepared before the proxy saw it)")
      }
    })
    client.on("data", (chunk: Buffer) => {
      read(chunk)
      postgres.write(chunk)
    })
    postgres.pipe(client)
    client.on("end", () => postgres.end())
    client.on("error", () => postgres.destroy())
    postgres.on("error", () => client.destroy())
    postgres.on("close", () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("the proxy has no port")
  return {
    database: {
      name: `${database.name} (counted on the wire)`,
      acquire: async () => {
        const acquired = await database.acquire()
        if (acquired.config._tag !== "Postgres") throw new Error("statements are counted on Postgres's wire only")
        upstream = new URL(Redacted.value(acquired.config.url))
        const proxied = new URL(upstream)
        proxied.hostname = "127.0.0.1"
        proxied.port = String(address.port)
        return { config: { ...acquired.config, url: Redacted.make(proxied.toString()) }, release: acquired.release }
      }
    },
    statementsDuring: async (action) => {
      const during: Array<string> = []
      recording = during
      try {
        await action()
      } finally {
        recording = undefined
      }
      return during
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const socket of sockets) socket.destroy()
      })
  }
}
