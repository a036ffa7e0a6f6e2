// The README's example, run as its reader would run it: a program of its own that imports the built package by name,
// against a Redis server of the test's own.
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type RedisServer, startRedisServer } from "./support/RedisServer.js"

const run = promisify(execFile)
const example = new URL("../examples/SharedBucket.ts", import.meta.url).pathname

let server: RedisServer
beforeAll(async () => {
  server = await startRedisServer()
})
afterAll(() => server.kill())

describe("the README's example", () => {
  it("spends one burst across two clients and says how long to wait", async () => {
    const { stdout } = await run(process.execPath, [example], { env: { ...process.env, REDIS_URL: server.url } })
    expect(stdout.trim().split("\n")).toEqual([
      "replica A: allowed",
      "replica B: allowed",
      "replica A: allowed",
      "replica B: refused, retry in 2 s"
    ])
  }, 60_000)
})
