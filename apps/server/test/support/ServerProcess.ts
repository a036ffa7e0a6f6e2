// For the tests that run the built `fatura` program as a process: where it is, and a port nobody listens on.
import { createServer } from "node:net"

export const main = new URL("../../dist/main.js", import.meta.url).pathname

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject()))
    })
  })
