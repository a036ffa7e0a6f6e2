// A body fixed when the server starts (the documentation's page and scripts, the OpenAPI document), served as caches
// and compressing clients expect: compressed once — brotli or gzip, each the first time a client takes it, on Node's
// thread pool rather than the event loop — and never per request; with a strong ETag per encoding, `304` to an
// `If-None-Match` that names it, and the `Cache-Control` it is given.
import { createHash } from "node:crypto"
import { promisify } from "node:util"
import { brotliCompress, constants, gzip } from "node:zlib"
import { Effect } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"

export type Encoding = "br" | "gzip" | "identity"

/** How much a coding is wanted, by `Accept-Encoding` (RFC 9110 §12.5.3): its weight, or `*`'s, or 0 when unnamed. */
const weights = (acceptEncoding: string) => {
  const named = new Map<string, number>()
  for (const element of acceptEncoding.split(",")) {
    const [coding = "", ...parameters] = element.split(";").map((part) => part.trim().toLowerCase())
    if (coding === "") continue
    const quality = parameters.find((parameter) => parameter.startsWith("q="))
    const weight = quality === undefined ? 1 : Number(quality.slice(2))
    named.set(coding === "x-gzip" ? "gzip" : coding, Number.isFinite(weight) ? weight : 0)
  }
  return (coding: string) => named.get(coding) ?? named.get("*") ?? 0
}

/**
 * The encoding to send to a client that sent `acceptEncoding`: the one of brotli and gzip it weighs more (brotli, the
 * smaller, on a tie), or the body as it is when it takes neither or sent no header.
 */
export const negotiate = (acceptEncoding: string | undefined): Encoding => {
  if (acceptEncoding === undefined) return "identity"
  const weightOf = weights(acceptEncoding)
  const brotli = weightOf("br")
  const gzipped = weightOf("gzip")
  if (brotli <= 0 && gzipped <= 0) return "identity"
  return brotli >= gzipped ? "br" : "gzip"
}

/** Whether an `If-None-Match` names `etag` (weak comparison, RFC 9110 §13.1.2), or is `*`. */
export const matches = (ifNoneMatch: string | undefined, etag: string) =>
  ifNoneMatch !== undefined &&
  (ifNoneMatch.trim() === "*" ||
    ifNoneMatch.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === etag))

const compressors: Record<Exclude<Encoding, "identity">, (body: Uint8Array) => Promise<Uint8Array>> = {
  // Quality 9 of 11: the documentation's script (3 MB) compresses in about a second and a half, 10% larger than at
  // 11, which takes six times as long.
  br: (body) =>
    promisify(brotliCompress)(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 9,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength
      }
    }),
  gzip: (body) => promisify(gzip)(body, { level: 9 })
}

export interface StaticAsset {
  /** The first 16 hex digits of the body's SHA-256, for names that change with the content. */
  readonly hash: string
  /** The answer to the current request: the body in the encoding it takes, or `304`. */
  readonly respond: Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>
}

export const make = (
  content: string | Uint8Array,
  options: {
    readonly contentType: string
    readonly cacheControl: string
    /** Sent with the body, not with a `304`. */
    readonly headers?: Readonly<Record<string, string>>
  }
): StaticAsset => {
  const body = typeof content === "string" ? new TextEncoder().encode(content) : content
  const hash = createHash("sha256").update(body).digest("hex").slice(0, 16)
  const encoded = new Map<Encoding, Promise<Uint8Array>>([["identity", Promise.resolve(body)]])
  // Made once and kept: requests that come while it is being made wait for the same one.
  const bodyIn = (encoding: Encoding) => {
    let made = encoded.get(encoding)
    if (made === undefined) {
      made = compressors[encoding as Exclude<Encoding, "identity">](body)
      encoded.set(encoding, made)
    }
    return made
  }
  return {
    hash,
    respond: Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const encoding = negotiate(request.headers["accept-encoding"])
      const etag = encoding === "identity" ? `"${hash}"` : `"${hash}-${encoding}"`
      const caching = { etag, "cache-control": options.cacheControl, vary: "accept-encoding" }
      if (matches(request.headers["if-none-match"], etag)) {
        return HttpServerResponse.empty({ status: 304, headers: caching })
      }
      return HttpServerResponse.uint8Array(yield* Effect.promise(() => bodyIn(encoding)), {
        contentType: options.contentType,
        headers: {
          ...options.headers,
          ...caching,
          ...(encoding === "identity" ? {} : { "content-encoding": encoding }),
          "x-content-type-options": "nosniff"
        }
      })
    })
  }
}
