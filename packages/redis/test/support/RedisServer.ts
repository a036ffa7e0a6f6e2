// A Redis server of a test's own, on a free loopback port, keeping nothing on disk: a test may stop it and start it
// again on the same port without touching the Redis anyone else uses.
import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject()))
    })
  })

export interface RedisServer {
  readonly url: string
  /** Starts it again, empty, on the same port. */
  readonly start: () => Promise<void>
  /** SIGKILL: gone at once, with everything it held. */
  readonly kill: () => Promise<void>
  /** SIGSTOP: its connections stay open, and nothing answers on them until `resume`. */
  readonly pause: () => void
  readonly resume: () => void
}

export const startRedisServer = async (): Promise<RedisServer> => {
  const port = await freePort()
  let child: ChildProcess | undefined

  const start = async () => {
    const started = spawn("redis-server", [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no"
    ])
    child = started
    let output = ""
    started.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString()
    })
    const spawnFailure = new Promise<never>((_, reject) =>
      started.once("error", (error) =>
        reject(
          new Error(
            `these tests need redis-server on the PATH (Debian: apt-get install redis-server): ${error.message}`
          )
        )
      )
    )
    const deadline = Date.now() + 10_000
    const ready = (async () => {
      while (!output.includes("Ready to accept connections")) {
        if (Date.now() > deadline || started.exitCode !== null)
          throw new Error(`redis-server did not start:\n${output}`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    })()
    await Promise.race([ready, spawnFailure])
  }

  const kill = async () => {
    const running = child
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return
    const exited = new Promise((resolve) => running.once("exit", resolve))
    running.kill("SIGKILL")
    await exited
  }

  await start()
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    kill,
    pause: () => child?.kill("SIGSTOP"),
    resume: () => child?.kill("SIGCONT")
  }
}
