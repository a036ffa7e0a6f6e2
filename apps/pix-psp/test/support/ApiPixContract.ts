// Holds HTTP exchanges with an API Pix server to the Central Bank's OpenAPI document, release 2.9.0, vendored
// unmodified in test/fixtures: the operation is found by method and path, the request (parameters, body) and the
// answer (status, media type, body, documented headers) are validated by openapi-backend, and whatever does not fit
// is recorded as a problem, for the test to assert there is none. Any suite that speaks API Pix can use it: the PSP's
// own, and the tests of a client such as @fatura/pix-api.
//
// The document is corrected in memory where it is plainly wrong (`errata`), and completed where it implies what it
// does not write (`implied`): both are listed below with their reasons, and the file itself is never touched.
import { readFileSync } from "node:fs"
import ajvFormats from "ajv-formats"
import { load } from "js-yaml"
import { OpenAPIBackend, type Operation } from "openapi-backend"

export const specFile = new URL("../fixtures/bacen-pix-api-2.9.0/openapi.yaml", import.meta.url)

// The document is plain YAML data: objects, arrays and scalars, read and rewritten as such.
type Node = Record<string, any>

export interface Erratum {
  readonly defect: string
  readonly reason: string
  /** Corrects the document in place; how many places it corrected (0: the defect is gone from this document). */
  readonly correct: (document: Node) => number
}

/** Every object of the document, depth first. */
const objectsOf = (node: unknown, visit: (object: Node) => void): void => {
  if (Array.isArray(node)) for (const item of node) objectsOf(item, visit)
  else if (node !== null && typeof node === "object") {
    visit(node as Node)
    for (const value of Object.values(node)) objectsOf(value, visit)
  }
}

export const errata: ReadonlyArray<Erratum> = [
  {
    defect: 'patterns written as JavaScript regular-expression literals, as every CPF\'s "/^\\d{11}$/"',
    reason:
      "As a JSON Schema pattern the slashes are characters to match and the anchors sit between them, so nothing " +
      "matches: no debtor with a CPF, nor any cpf filter, could ever be valid. Read as the expression between the slashes.",
    correct: (document) => {
      let corrected = 0
      objectsOf(document, (object) => {
        if (typeof object.pattern === "string" && /^\/\^.*\$\/$/.test(object.pattern)) {
          object.pattern = object.pattern.slice(1, -1)
          corrected += 1
        }
      })
      return corrected
    }
  },
  {
    defect: "PixConsultados (the answer of GET /pix) requires `cobs`",
    reason:
      "Copied from CobsConsultadas: the list of pix is `pix`, as the schema's own properties and the example getPix1 " +
      "have it; no answer listing pix has a `cobs`.",
    correct: (document) => {
      const schema = document.components?.schemas?.PixConsultados
      if (!Array.isArray(schema?.required) || !schema.required.includes("cobs")) return 0
      schema.required = schema.required.map((name: string) => (name === "cobs" ? "pix" : name))
      return 1
    }
  },
  {
    defect: "the `location` of charges and locations typed `format: uri`",
    reason:
      'A location is written without scheme ("pix.example.com/qr/v2/…", in the document\'s own examples and in the ' +
      "BR Code manual, since the payer's app adds https://): that is a URI reference, not a URI.",
    correct: (document) => {
      let corrected = 0
      objectsOf(document, (object) => {
        const location = object.properties?.location
        if (location?.format === "uri" && typeof location.example === "string" && !location.example.includes("://")) {
          location.format = "uri-reference"
          corrected += 1
        }
      })
      return corrected
    }
  },
  {
    defect: "DadosRecebedor requires `logradouro`, `cidade`, `uf` and `cep` of the charge itself",
    reason:
      "They are the address of the `recebedor`, whose own schema requires them again: every example of a charge with " +
      "a due date (cobResponse4, cobPayload2) writes them inside `recebedor` and never beside it.",
    correct: (document) => {
      const schema = document.components?.schemas?.DadosRecebedor
      const inner = schema?.properties?.recebedor?.allOf?.some((part: Node) => Array.isArray(part.required))
      if (!Array.isArray(schema?.required) || !inner) return 0
      delete schema.required
      return 1
    }
  }
]

/** Where each callback of the document is put as an operation, so that its request is validated like any other. */
export const callbackPath = (name: string) => `/callbacks/${name}`

const methods = ["get", "put", "post", "patch", "delete"] as const

/** Whether `path` is one the document's path template names (`/cobv/{txid}` names `/cobv/abc`). */
const templateMatches = (template: string, path: string) =>
  new RegExp(
    `^${template
      .split(/\{[^}]+\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join("[^/]+")}$`
  ).test(path)

const payloadTags = new Set(["CobPayload", "RecPayload"])
const isPayloadOperation = (operation: Operation) => (operation.tags ?? []).some((tag) => payloadTags.has(tag))

/**
 * What the document implies without writing it: a 401 on every operation its OAuth2 scheme protects (RFC 6750: no
 * token, or one that is unknown or expired), answered as the document's other errors are, with a `Problema`; and
 * its callbacks (the webhook's `POST {webhookUrl}/pix`) as operations of their own.
 */
const complete = (document: Node) => {
  for (const item of Object.values<Node>(document.paths)) {
    for (const method of methods) {
      const operation = item[method]
      if (operation === undefined) continue
      const secured = (operation.security ?? document.security ?? []).some(
        (requirement: Node) => "OAuth2" in requirement
      )
      if (secured && operation.responses["401"] === undefined) {
        operation.responses["401"] = {
          description: "Implied by the OAuth2 scheme: no valid bearer token.",
          content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problema" } } }
        }
      }
      for (const [name, callback] of Object.entries<Node>(operation.callbacks ?? {})) {
        for (const callbackItem of Object.values<Node>(callback)) document.paths[callbackPath(name)] = callbackItem
      }
      delete operation.callbacks
    }
  }
}

export interface ContractOptions {
  /** Where the server serves the locations (the document's `/{pixUrlAccessToken}` under another server). */
  readonly locationPrefix?: string
  /** Routes outside the document, let through unchecked: the OAuth2 token, the JWKS, the PSP's simulator. */
  readonly outside?: ReadonlyArray<RegExp>
}

/** One HTTP exchange as a client saw it. */
export interface HttpExchange {
  readonly method: string
  /** Path and query, as sent. */
  readonly target: string
  readonly requestHeaders: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  readonly requestBody?: string
  readonly status: number
  readonly responseHeaders: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  readonly responseBody: string
}

const jsonMediaType = (mediaType: string) => mediaType === "application/json" || mediaType.endsWith("+json")

const mediaTypeOf = (headers: HttpExchange["responseHeaders"]) => {
  const value = headers["content-type"]
  return (typeof value === "string" ? value : (value?.[0] ?? "")).split(";")[0]?.trim().toLowerCase() ?? ""
}

const headerRecord = (headers: HttpExchange["requestHeaders"]) =>
  Object.fromEntries(
    Object.entries(headers)
      .filter((entry): entry is [string, string | ReadonlyArray<string>] => entry[1] !== undefined)
      .map(([name, value]) => [name.toLowerCase(), typeof value === "string" ? value : value.join(", ")])
  )

/** The JSON a body carries for its media type: as is for JSON, the payload of a compact JWS for application/jose. */
const bodyOf = (mediaType: string, text: string): { readonly value: unknown } | { readonly error: string } => {
  try {
    if (mediaType === "application/jose") {
      const payload = text.trim().split(".")[1]
      if (payload === undefined) return { error: "the body is not a compact JWS" }
      return { value: JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) }
    }
    return { value: JSON.parse(text) }
  } catch (error) {
    return { error: `the body does not parse as ${mediaType}: ${String(error)}` }
  }
}

export class ApiPixContract {
  /** Everything that did not fit the document, one line each, naming the exchange. */
  readonly problems: Array<string> = []
  /** The operations checked and the statuses they answered, e.g. `PUT /cob/{txid} 201`. */
  readonly checked: Array<string> = []
  /** The exchanges let through as outside the document. */
  readonly outside: Array<string> = []

  private constructor(
    private readonly api: OpenAPIBackend,
    /** Media types the document gives each operation's request body and each of its answers, by status. */
    private readonly mediaTypes: ReadonlyMap<
      string,
      { readonly request: ReadonlyArray<string>; readonly responses: Readonly<Record<string, ReadonlyArray<string>>> }
    >,
    private readonly locationPrefix: string,
    private readonly outsideRoutes: ReadonlyArray<RegExp>
  ) {}

  static async load(options: ContractOptions = {}): Promise<ApiPixContract> {
    const document = load(readFileSync(specFile, "utf8")) as Node
    for (const erratum of errata) erratum.correct(document)
    complete(document)
    // openapi-backend compiles a validator per operation, by id (the document has none), and validates only the
    // application/json content of requests and answers: each operation gets its `METHOD path` as id, and each body
    // its schema under application/json, once the media types the document gives are noted for the checks below.
    const mediaTypes = new Map<
      string,
      { request: ReadonlyArray<string>; responses: Record<string, ReadonlyArray<string>> }
    >()
    const asJson = (content: Node | undefined) => {
      const first = Object.values<Node>(content ?? {})[0]
      return first === undefined ? undefined : { "application/json": first }
    }
    // Responses and request bodies are often shared components ($ref): each operation gets its own copy.
    const resolved = (node: Node): Node => {
      if (typeof node?.$ref !== "string") return node
      const found = node.$ref
        .slice(2)
        .split("/")
        .reduce((at: Node | undefined, key: string) => at?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], document)
      return resolved(found as Node)
    }
    for (const [path, item] of Object.entries<Node>(document.paths)) {
      for (const method of methods) {
        const operation = item[method]
        if (operation === undefined) continue
        operation.operationId = `${method.toUpperCase()} ${path}`
        const responses: Record<string, ReadonlyArray<string>> = {}
        for (const [status, reference] of Object.entries<Node>(operation.responses ?? {})) {
          const response = resolved(reference)
          responses[status] = Object.keys(response.content ?? {})
          operation.responses[status] = { ...response, content: asJson(response.content) }
        }
        const requestBody = operation.requestBody === undefined ? undefined : resolved(operation.requestBody)
        const request = Object.keys(requestBody?.content ?? {})
        if (requestBody !== undefined) operation.requestBody = { ...requestBody, content: asJson(requestBody.content) }
        mediaTypes.set(operation.operationId, { request, responses })
      }
    }
    const api = new OpenAPIBackend({
      definition: document as never,
      quick: true,
      strict: false,
      customizeAjv: (ajv) => {
        // ajv-formats is CommonJS: its function is both the module and its `default`.
        ajvFormats.default(ajv)
        ajv.addFormat("int32", {
          type: "number",
          validate: (value: number) => Number.isInteger(value) && Math.abs(value) < 2 ** 31
        })
        ajv.addFormat("int64", { type: "number", validate: (value: number) => Number.isInteger(value) })
        return ajv
      }
    })
    await api.init()
    return new ApiPixContract(
      api,
      mediaTypes,
      options.locationPrefix ?? "/qr/v2",
      options.outside ?? [/^\/oauth\/token$/, /^\/\.well-known\/jwks\.json$/, /^\/simulator\//]
    )
  }

  private record(name: string, problems: ReadonlyArray<string>): ReadonlyArray<string> {
    const named = problems.map((problem) => `${name}: ${problem}`)
    this.problems.push(...named)
    return named
  }

  private static errorsOf(
    label: string,
    errors: ReadonlyArray<{ instancePath: string; message?: string | undefined }> | null | undefined
  ) {
    return (errors ?? []).map((error) => `${label} ${error.instancePath || "(root)"} ${error.message ?? "is invalid"}`)
  }

  /** Checks one exchange; returns (and records) its problems. */
  check(exchange: HttpExchange): ReadonlyArray<string> {
    const url = new URL(exchange.target, "https://api-pix.invalid")
    const method = exchange.method.toLowerCase()
    const name = `${exchange.method.toUpperCase()} ${url.pathname} → ${exchange.status}`
    if (this.outsideRoutes.some((route) => route.test(url.pathname))) {
      this.outside.push(name)
      return []
    }
    const isLocation = url.pathname.startsWith(`${this.locationPrefix}/`)
    const path = isLocation ? url.pathname.slice(this.locationPrefix.length) : url.pathname
    const headers = headerRecord(exchange.requestHeaders)
    const query = Object.fromEntries(url.searchParams)
    // A location is matched among the locations alone: to a router, the document's `/cobv/{pixUrlAccessToken}` (a
    // charge with a due date's) is the same path as `/cobv/{txid}`, which it lists first.
    const operation = isLocation
      ? this.api
          .getOperations()
          .find(
            (candidate) =>
              candidate.method === method && isPayloadOperation(candidate) && templateMatches(candidate.path, path)
          )
      : this.api.matchOperation({ method, path, headers, query })
    if (operation === undefined || isPayloadOperation(operation) !== isLocation) {
      return this.record(name, ["no operation of the API Pix document answers to this method and path"])
    }
    const problems: Array<string> = []
    const mediaTypes = this.mediaTypes.get(operation.operationId ?? "")

    let requestBody: unknown
    if (exchange.requestBody !== undefined && exchange.requestBody !== "") {
      const mediaType = mediaTypeOf(exchange.requestHeaders)
      if (!(mediaTypes?.request ?? []).includes(mediaType)) {
        problems.push(
          `request: media type "${mediaType}" is not one the operation takes (${mediaTypes?.request.join(", ") || "no body"})`
        )
      }
      const parsed = bodyOf(mediaType, exchange.requestBody)
      if ("error" in parsed) problems.push(`request: ${parsed.error}`)
      else requestBody = parsed.value
    }
    const request = this.api.validateRequest({ method, path, headers, query, body: requestBody }, operation)
    problems.push(...ApiPixContract.errorsOf("request:", request.errors))

    problems.push(...this.checkAnswer(operation, exchange, mediaTypes?.responses ?? {}))
    this.checked.push(`${operation.operationId} ${exchange.status}`)
    return this.record(`${name} (${operation.operationId})`, problems)
  }

  private checkAnswer(
    operation: Operation,
    exchange: HttpExchange,
    mediaTypes: Readonly<Record<string, ReadonlyArray<string>>>
  ) {
    const status = String(exchange.status)
    const documented = [status, `${status[0]}XX`, "default"].find((key) => operation.responses?.[key] !== undefined)
    if (documented === undefined) {
      return [`answer: status ${status} is not documented (${Object.keys(operation.responses ?? {}).join(", ")})`]
    }
    const problems: Array<string> = []
    const expected = mediaTypes[documented] ?? []
    const mediaType = mediaTypeOf(exchange.responseHeaders)
    let body: unknown = exchange.status === 204 ? null : undefined
    if (expected.length === 0) {
      if (exchange.responseBody !== "")
        problems.push(
          `answer: status ${status} has no body in the document, got "${exchange.responseBody.slice(0, 80)}"`
        )
    } else if (!expected.includes(mediaType)) {
      problems.push(`answer: media type "${mediaType}" is not documented for ${status} (${expected.join(", ")})`)
    } else {
      const parsed = bodyOf(mediaType, exchange.responseBody)
      if ("error" in parsed) problems.push(`answer: ${parsed.error}`)
      else body = parsed.value
      if (!jsonMediaType(mediaType) && mediaType !== "application/jose")
        problems.push(`answer: cannot read ${mediaType}`)
    }
    if (body !== undefined) {
      problems.push(
        ...ApiPixContract.errorsOf("answer:", this.api.validateResponse(body, operation, exchange.status).errors)
      )
    }
    const headers = headerRecord(exchange.responseHeaders)
    problems.push(
      ...ApiPixContract.errorsOf(
        "answer headers:",
        this.api.validateResponseHeaders(headers, operation, { statusCode: exchange.status }).errors
      )
    )
    return problems
  }

  /** Checks the body of a webhook notification (the document's `listaPix` callback, `POST {webhookUrl}/pix`). */
  checkNotification(body: unknown): ReadonlyArray<string> {
    const path = callbackPath("listaPix")
    const operation = this.api.getOperation(`POST ${path}`)
    if (operation === undefined) return this.record("notification", ["the document has no listaPix callback"])
    const result = this.api.validateRequest(
      { method: "post", path, headers: { "content-type": "application/json" }, query: {}, body },
      operation
    )
    this.checked.push("listaPix callback")
    return this.record("notification (listaPix callback)", ApiPixContract.errorsOf("request:", result.errors))
  }
}
