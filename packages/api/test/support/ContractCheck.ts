// Every answer a test gets from a Fatura server, held to the OpenAPI document the server serves: the status is one
// the document lists for the operation, the documented headers are there and well-formed, and the body matches the
// schema of its status and content type. A test that meets an answer the document does not tell fails, saying why,
// so the document cannot drift from what the server does. Each document is compiled once, before any answer comes.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js"
import addFormats from "ajv-formats"

type Json = Record<string, any>

export interface Answer {
  readonly method: string
  /** The request target: a path and its query. */
  readonly target: string
  readonly status: number
  /** Header names in lower case. */
  readonly headers: ReadonlyMap<string, string>
  readonly body: Uint8Array | string
}

const methods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]

const essence = (contentType: string) => contentType.split(";")[0]!.trim().toLowerCase()

/** A header's text as the value its schema describes: an integer header is checked as the integer it spells. */
const headerValue = (text: string, schema: Json): unknown => {
  if ((schema.type === "integer" || schema.type === "number") && /^-?\d+(\.\d+)?$/.test(text)) return Number(text)
  return text
}

const excerpt = (text: string) => (text.length > 600 ? `${text.slice(0, 600)}…` : text)

/**
 * The one spelling of a path that names a route (as the edge has it): segments of RFC 3986 unreserved characters, none
 * of them `.` or `..`. Any other spelling — percent-encoding, doubled or trailing slashes — is no route.
 */
const canonicalPath = /^(?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9._~-]+)+$|^\/$/

export interface ContractCheck {
  /** Throws, saying what differs, unless the answer is one the document tells. */
  readonly check: (answer: Answer) => void
  /** `fetch`, with the answer held to the document before the caller sees it. */
  readonly checkedFetch: (url: string | URL | Request, init?: RequestInit) => Promise<Response>
}

/** The check of answers against one OpenAPI document (as `/openapi.json` serves it). */
export const make = (document: Json): ContractCheck => {
  const resolve = (value: Json): Json => {
    if (typeof value.$ref !== "string") return value
    const pointer = value.$ref.replace(/^#\//, "").split("/")
    return resolve(pointer.reduce((at: Json, key: string) => at[key], document))
  }

  // Component references point into the document; ajv reaches them through one schema that holds them all.
  const contractId = "https://fatura.test/contract.json"
  const pointingIntoContract = (schema: unknown): unknown =>
    JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${contractId}#/$defs/`))

  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false })
  addFormats.default(ajv)
  ajv.addFormat("binary", true)
  ajv.addKeyword("example")
  ajv.addSchema({ $id: contractId, $defs: pointingIntoContract(document.components.schemas) as Json })

  // By the schema itself: most responses are a reference to one of a few components.
  const compiled = new Map<string, ValidateFunction>()
  const validatorOf = (schema: Json) => {
    const key = JSON.stringify(schema)
    let validate = compiled.get(key)
    if (validate === undefined) {
      validate = ajv.compile(pointingIntoContract(schema) as Json)
      compiled.set(key, validate)
    }
    return validate
  }

  interface Route {
    readonly name: string
    readonly pattern: RegExp
    readonly operations: Json
  }

  const routes: ReadonlyArray<Route> = Object.entries(document.paths as Record<string, Json>).map(
    ([template, operations]) => ({
      name: template,
      pattern: new RegExp(`^${template.replaceAll(".", "\\.").replace(/\{[^}]+\}/g, "[A-Za-z0-9._~-]+")}$`),
      operations
    })
  )

  /**
   * What the edge answers to a request no operation of the document matches: no such route (404), a path served with
   * other methods (405, with `Allow`), or, before any route is looked for, a request that is malformed (400), too slow
   * (408) or whose headers are too large (431). The document lists the 405 on no operation — no operation is asked
   * with a method it is not — so it is held here to the contract's error JSON: `code` and `message`, nothing else.
   */
  const unrouted: Json = (() => {
    const health = document.paths["/health"].get.responses
    const notFound = resolve({ $ref: "#/components/schemas/NotFound" })
    return {
      operationId: "no such route",
      responses: {
        "400": health["400"],
        "404": {
          description: "No such route.",
          headers: health["400"].headers,
          content: { "application/json": { schema: { $ref: "#/components/schemas/NotFound" } } }
        },
        "405": {
          description: "A path served with other methods.",
          headers: {
            ...health["400"].headers,
            allow: { required: true, schema: { type: "string", pattern: "^[A-Z]+(, [A-Z]+)*$" } }
          },
          content: {
            "application/json": {
              schema: {
                ...notFound,
                description: "The path exists, but not with this method.",
                properties: { ...notFound.properties, code: { type: "string", enum: ["method_not_allowed"] } }
              }
            }
          }
        },
        "408": health["408"],
        "431": health["431"],
        "500": health["500"]
      }
    }
  })()

  const operationOf = (method: string, path: string): Json => {
    const lower = method.toLowerCase()
    if (!canonicalPath.test(path)) return unrouted
    for (const route of routes) {
      if (route.pattern.test(path) && methods.includes(lower) && route.operations[lower] !== undefined) {
        return route.operations[lower]
      }
    }
    return unrouted
  }

  // Everything is compiled before any answer comes in: a test's server runs in the test's own process, and a compile
  // in the middle of a burst of requests would stall the server too.
  for (const operations of [...routes.map((route) => route.operations), { unrouted }]) {
    for (const operation of Object.values(operations) as Array<Json>) {
      for (const documented of Object.values((operation.responses ?? {}) as Record<string, Json>)) {
        const response = resolve(documented)
        for (const header of Object.values((response.headers ?? {}) as Record<string, Json>)) {
          validatorOf(resolve(header).schema)
        }
        for (const [mediaType, media] of Object.entries((response.content ?? {}) as Record<string, Json>)) {
          if (essence(mediaType) === "application/json") validatorOf(media.schema)
        }
      }
    }
  }

  const describe = (answer: Answer, operation: Json) =>
    `${answer.method} ${answer.target} (${operation.operationId}) answered ${answer.status}`

  const check = (answer: Answer): void => {
    // An absolute-form target (RFC 9112 §3.2.2) names the same route as its path, taken as written.
    const path = answer.target.replace(/^https?:\/\/[^/?#]*/i, "").split("?")[0]!
    const operation = operationOf(answer.method, path)
    const documented = operation.responses[String(answer.status)] ?? operation.responses.default
    if (documented === undefined) {
      throw new Error(
        `${describe(answer, operation)}, a status the OpenAPI document does not list for it ` +
          `(it lists ${Object.keys(operation.responses).join(", ")})`
      )
    }
    const response = resolve(documented)
    const problems: Array<string> = []
    for (const [name, declared] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
      const header = resolve(declared)
      const value = answer.headers.get(name.toLowerCase())
      if (value === undefined) {
        if (header.required === true) problems.push(`the header ${name} is missing`)
        continue
      }
      const validate = validatorOf(header.schema)
      if (!validate(headerValue(value, header.schema))) {
        problems.push(`the header ${name}: ${JSON.stringify(value)} ${ajv.errorsText(validate.errors)}`)
      }
    }
    const text = typeof answer.body === "string" ? answer.body : new TextDecoder().decode(answer.body)
    const content = response.content as Record<string, Json> | undefined
    const contentType = answer.headers.get("content-type")
    if (content === undefined) {
      if (text !== "") problems.push(`a body where the document has none: ${excerpt(text)}`)
    } else if (contentType === undefined) {
      problems.push(`no content-type where the document has ${Object.keys(content).join(", ")}`)
    } else {
      const mediaType = Object.keys(content).find((documented) => essence(documented) === essence(contentType))
      if (mediaType === undefined) {
        problems.push(`content-type ${contentType} where the document has ${Object.keys(content).join(", ")}`)
      } else if (essence(mediaType) === "application/json") {
        let body: unknown
        try {
          body = JSON.parse(text)
        } catch {
          problems.push(`a body that is not JSON: ${excerpt(text)}`)
        }
        if (body !== undefined) {
          const validate = validatorOf(content[mediaType]!.schema)
          if (!validate(body)) {
            problems.push(`the body ${ajv.errorsText(validate.errors, { separator: "; " })}: ${excerpt(text)}`)
          }
        }
      }
    }
    if (problems.length > 0) {
      throw new Error(
        `${describe(answer, operation)}, which the OpenAPI document does not tell:\n- ${problems.join("\n- ")}`
      )
    }
  }

  const checkedFetch = async (url: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const response = await fetch(url, init)
    const body = new Uint8Array(await response.arrayBuffer())
    const target = new URL(url instanceof Request ? url.url : url)
    check({
      method: init.method ?? (url instanceof Request ? url.method : "GET"),
      target: `${target.pathname}${target.search}`,
      status: response.status,
      headers: new Map(response.headers),
      body
    })
    return new Response(response.status === 204 || response.status === 304 ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers
    })
  }

  return { check, checkedFetch }
}
