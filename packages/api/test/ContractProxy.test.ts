// The proxy the client's tests reach the server through: it must pass every answer on unchanged and keep, as a
// problem, each one the served OpenAPI document does not tell, or the drift it is there to catch would pass unseen.
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type ContractProxy, startContractProxy } from "./support/ContractProxy.js"

const requestId = { "X-Request-Id": { required: true, schema: { type: "string" } } }
const error = { description: "An error.", headers: requestId }

/** A document as small as Fatura's is shaped: `/health` tells what the edge answers before any route is found. */
const document = {
  openapi: "3.1.0",
  info: { title: "a server", version: "1" },
  paths: {
    "/health": {
      get: { operationId: "health", responses: { "400": error, "408": error, "431": error, "500": error } }
    },
    "/things/{id}": {
      get: {
        operationId: "thing",
        responses: {
          "200": {
            description: "The thing.",
            headers: requestId,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: { id: { type: "integer" } },
                  required: ["id"],
                  additionalProperties: false
                }
              }
            }
          }
        }
      }
    }
  },
  components: { schemas: { NotFound: { type: "object" } } }
}

/** What the server answers to each path. */
const answers: Record<string, { status: number; headers: Record<string, string>; body: string }> = {
  "/openapi.json": { status: 200, headers: {}, body: JSON.stringify(document) },
  "/things/1": { status: 200, headers: { "x-request-id": "r1" }, body: JSON.stringify({ id: 1 }) },
  "/things/2": { status: 200, headers: { "x-request-id": "r2" }, body: JSON.stringify({ id: "2" }) },
  "/things/3": { status: 418, headers: { "x-request-id": "r3" }, body: JSON.stringify({ id: 3 }) },
  "/things/4": { status: 200, headers: {}, body: JSON.stringify({ id: 4 }) }
}

describe("the contract-checking proxy", () => {
  let upstream: Server
  let proxy: ContractProxy

  beforeAll(async () => {
    upstream = createServer((request, response) => {
      const answer = answers[request.url ?? ""] ?? { status: 404, headers: {}, body: "" }
      response.writeHead(answer.status, { "content-type": "application/json", ...answer.headers })
      response.end(answer.body)
    })
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve))
    proxy = await startContractProxy(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`)
  })
  afterAll(async () => {
    await proxy.close()
    await new Promise((resolve) => upstream.close(resolve))
  })

  it("passes an answer the document tells on unchanged, keeping no problem", async () => {
    const response = await fetch(`${proxy.url}/things/1`)
    expect(response.status).toBe(200)
    expect(response.headers.get("x-request-id")).toBe("r1")
    expect(await response.json()).toEqual({ id: 1 })
    expect(proxy.problems()).toEqual([])
  })

  it("keeps a body, a status and a missing header the document does not tell, and still passes them on", async () => {
    const statuses = await Promise.all(
      ["/things/2", "/things/3", "/things/4"].map(async (path) => (await fetch(`${proxy.url}${path}`)).status)
    )
    expect(statuses).toEqual([200, 418, 200])
    const problems = proxy.problems().join("\n")
    expect(proxy.problems()).toHaveLength(3)
    expect(problems).toMatch(/GET \/things\/2 \(thing\) answered 200[\s\S]*the body data\/id must be integer/)
    expect(problems).toMatch(/GET \/things\/3 \(thing\) answered 418, a status the OpenAPI document does not list/)
    expect(problems).toMatch(/GET \/things\/4 \(thing\) answered 200[\s\S]*X-Request-Id is missing/)
  })
})
