// What the OpenAPI document says beyond what the endpoints' schemas state: the headers that the edge reads and writes
// on every route (SPEC 1, 9), and the pages served beside the JSON API — the hosted checkout page (SPEC 11.3), the
// interactive documentation and this document itself (SPEC 11.1) — so that every route a client can call is in it.
import type { OpenApi } from "effect/http-api"

type Json = Record<string, unknown>

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` })
const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` })

const requestIdSchema = { type: "string", pattern: "^[A-Za-z0-9._-]{1,128}$" }

const headers: Json = {
  RequestId: {
    description: "The request's id, also in the service's logs: the caller's `X-Request-Id` when it sent a sane one.",
    required: true,
    schema: requestIdSchema
  },
  IdempotentReplayed: {
    description: "`true` on the stored response of an earlier request with the same `Idempotency-Key`.",
    required: false,
    schema: { type: "string", enum: ["true"] }
  }
}

const parameters: Json = {
  RequestId: {
    name: "X-Request-Id",
    in: "header",
    required: false,
    description: "An id for the request, echoed on the response and in the logs; up to 128 of `A-Za-z0-9._-`.",
    schema: requestIdSchema
  },
  IdempotencyKey: {
    name: "Idempotency-Key",
    in: "header",
    required: false,
    description:
      "Runs the request once: a repeat with the same key and body gets the first response back (with " +
      "`Idempotent-Replayed: true`), a repeat with another body 409 `idempotency_conflict`, a repeat while the " +
      "first is still running 409 `idempotency_in_progress`. Scoped to the caller and the endpoint; kept 24 h.",
    schema: { type: "string", pattern: "^[\\x20-\\x7E]{1,255}$", examples: ["order-1042-attempt-1"] }
  }
}

const json = (schema: Json) => ({ "application/json": { schema } })
const html = { "text/html; charset=utf-8": { schema: { type: "string" } } }
const javascript = { "text/javascript; charset=utf-8": { schema: { type: "string" } } }

/** The answers of the edge in front of every route, as the API's own operations document them. */
const anyRequest = {
  "400": {
    description: "A malformed request, target or query.",
    content: json(schemaRef("InvalidRequest"))
  },
  "408": { description: "The request did not arrive in time.", content: json(schemaRef("RequestTimeout")) },
  "431": { description: "The request's headers are too large.", content: json(schemaRef("HeadersTooLarge")) },
  "500": { description: "A bug, logged with the request id.", content: json(schemaRef("InternalError")) }
}

const rateLimitedByAddress = {
  description: "Too many requests from this address.",
  headers: { "retry-after": { required: true, schema: { type: "integer", minimum: 1 } } },
  content: json(schemaRef("RateLimited"))
}

/** The headers of a document served as caches expect (`ETag`, `304`), compressed for a client that takes it. */
const cachedHeaders: Json = {
  etag: {
    description: "The strong tag of this content in this encoding, for `If-None-Match`.",
    required: true,
    schema: { type: "string", pattern: '^"[0-9a-f]{16}(-br|-gzip)?"$' }
  },
  "cache-control": {
    description: "`no-cache` (ask again, `304` while unchanged), or for an asset named by its content `immutable`.",
    required: true,
    schema: { type: "string" }
  },
  vary: { description: "`accept-encoding`.", required: true, schema: { type: "string", enum: ["accept-encoding"] } },
  "content-encoding": {
    description: "`br` or `gzip`, when the request's `Accept-Encoding` takes one; none otherwise.",
    required: false,
    schema: { type: "string", enum: ["br", "gzip"] }
  }
}

/** What a document served as caches expect answers, besides its `200`. */
const cachedAnswers = {
  "304": {
    description: "Unchanged: the request's `If-None-Match` names this content's tag.",
    headers: { etag: cachedHeaders.etag, "cache-control": cachedHeaders["cache-control"], vary: cachedHeaders.vary }
  },
  "429": rateLimitedByAddress
}

const cachingRequest = [
  {
    name: "If-None-Match",
    in: "header",
    required: false,
    description: "The `ETag` of a copy the client holds: `304` without a body while it is still this content.",
    schema: { type: "string" }
  },
  {
    name: "Accept-Encoding",
    in: "header",
    required: false,
    description: "`br` and `gzip` are served (brotli first); without either, the body as it is.",
    schema: { type: "string" }
  }
]

const pages: Record<string, Json> = {
  "/checkout/{secureId}": {
    get: {
      tags: ["Pages"],
      operationId: "checkoutPage",
      summary: "Hosted checkout page",
      description:
        "The page a merchant sends its payer to (pt-BR): the invoice and how to pay it, for whoever holds its " +
        "checkout token.",
      security: [],
      parameters: [
        {
          name: "secureId",
          in: "path",
          required: true,
          description: "The invoice's secureId.",
          schema: { type: "string", format: "uuid" }
        },
        {
          name: "token",
          in: "query",
          required: true,
          description: "The invoice's `invoice.token_checkout`. Without it, or with a wrong one, the page is 404.",
          schema: { type: "string" }
        }
      ],
      responses: {
        "200": { description: "The page.", content: html },
        ...anyRequest,
        "404": { description: "No such invoice for that token: a page that says so.", content: html },
        "429": rateLimitedByAddress,
        "503": { description: "The database cannot be reached: a page that says so.", content: html }
      }
    }
  },
  "/docs": {
    get: {
      tags: ["Pages"],
      operationId: "docs",
      summary: "Interactive documentation",
      description:
        "This document, rendered for people; it loads nothing from elsewhere, only its two scripts " +
        "(`/docs/{asset}`). Limited per client address, like the payer's side.",
      security: [],
      parameters: cachingRequest,
      responses: {
        "200": { description: "The page.", headers: cachedHeaders, content: html },
        ...cachedAnswers,
        ...anyRequest
      }
    }
  },
  "/docs/{asset}": {
    get: {
      tags: ["Pages"],
      operationId: "docsAsset",
      summary: "A script of the interactive documentation",
      description:
        "The scripts `/docs` loads, named by their content (`scalar.<hash>.js`, `setup.<hash>.js`) and so cached " +
        "for good. Limited per client address, like the payer's side.",
      security: [],
      parameters: [
        {
          name: "asset",
          in: "path",
          required: true,
          description: "The script's name, as the page gives it.",
          schema: { type: "string" }
        },
        ...cachingRequest
      ],
      responses: {
        "200": { description: "The script.", headers: cachedHeaders, content: javascript },
        ...cachedAnswers,
        "404": { description: "No script of that name.", content: json(schemaRef("NotFound")) },
        ...anyRequest
      }
    }
  },
  "/openapi.json": {
    get: {
      tags: ["Pages"],
      operationId: "openApiDocument",
      summary: "OpenAPI document",
      description: "This document. Limited per client address, like the payer's side.",
      security: [],
      parameters: cachingRequest,
      responses: {
        "200": { description: "The OpenAPI 3.1 document.", headers: cachedHeaders, content: json({ type: "object" }) },
        ...cachedAnswers,
        ...anyRequest
      }
    }
  }
}

const methods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const

/** Declares the edge's headers on every operation, and adds the pages. */
export const complete = (generated: Record<string, any>): Record<string, any> => {
  const spec = generated as OpenApi.OpenAPISpec
  // The pages are copied: what follows adds to each operation, and every document gets its own.
  const paths: Record<string, Json> = { ...(spec.paths as Record<string, Json>), ...structuredClone(pages) }
  for (const item of Object.values(paths)) {
    for (const method of methods) {
      const operation = item[method] as
        | { parameters: Array<unknown>; responses: Record<string, { headers?: Json }> }
        | undefined
      if (operation === undefined) continue
      // Every POST runs through idempotency (SPEC 9), and its stored response may come back as a replay.
      const idempotent = method === "post"
      operation.parameters = [
        ...operation.parameters,
        parameterRef("RequestId"),
        ...(idempotent ? [parameterRef("IdempotencyKey")] : [])
      ]
      for (const response of Object.values(operation.responses)) {
        response.headers = {
          ...response.headers,
          "x-request-id": headerRef("RequestId"),
          ...(idempotent ? { "idempotent-replayed": headerRef("IdempotentReplayed") } : {})
        }
      }
    }
  }
  return {
    ...spec,
    paths: paths as OpenApi.OpenAPISpecPaths,
    components: { ...spec.components, headers, parameters } as OpenApi.OpenAPIComponents,
    tags: [...spec.tags, { name: "Pages", description: "Pages for people, and this document: not JSON API resources." }]
  }
}
