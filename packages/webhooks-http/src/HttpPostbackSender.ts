// The postback sender: one POST with the headers and HMAC-SHA256 signature of SPEC 8.2, answered within 10 s or
// failed, redirects not followed; when the target check gave addresses, it connects to those and no others. It signs
// with the contract's Postback.sign, the code that receivers verify against.

import { request as httpRequest, type RequestOptions } from "node:http"
import { request as httpsRequest } from "node:https"
import type { LookupFunction } from "node:net"
import { Postback } from "@fatura/api"
import { type PostbackRequest, PostbackSender, PostbackSendFailed } from "@fatura/application"
import { Effect, Layer } from "effect"

export const userAgent = "Fatura-Postback/1"
export const timeoutMs = 10_000

/** Answers every lookup of the target's host with the addresses that were checked (no second, rebound answer). */
const pinnedLookup =
  (addresses: ReadonlyArray<string>): LookupFunction =>
  (_hostname, options, callback) => {
    const entries = addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }))
    if (typeof options === "object" && options !== null && "all" in options && options.all === true) {
      ;(callback as (error: null, addresses: typeof entries) => void)(null, entries)
    } else {
      const first = entries[0]!
      callback(null, first.address, first.family)
    }
  }

/** One POST of the postback, with the signature already written. */
const post = (postback: PostbackRequest, signature: string) =>
  Effect.callback<{ readonly statusCode: number; readonly durationMs: number }, PostbackSendFailed>((resume) => {
    const started = performance.now()
    const elapsed = () => Math.round(performance.now() - started)
    const url = new URL(postback.url)
    const body = Buffer.from(postback.body, "utf8")
    const options: RequestOptions = {
      method: "POST",
      timeout: timeoutMs,
      headers: {
        "content-type": "application/json",
        "content-length": String(body.length),
        "user-agent": userAgent,
        [Postback.eventIdHeader]: postback.eventId,
        [Postback.eventTypeHeader]: postback.eventType,
        [Postback.signatureHeader]: signature
      },
      ...(postback.addresses === null || postback.addresses.length === 0
        ? {}
        : { lookup: pinnedLookup(postback.addresses) })
    }
    const send = url.protocol === "https:" ? httpsRequest : httpRequest
    const request = send(url, options, (response) => {
      // The body is not read: only the status tells success. Draining frees the socket.
      response.resume()
      resume(Effect.succeed({ statusCode: response.statusCode ?? 0, durationMs: elapsed() }))
    })
    const deadline = setTimeout(() => request.destroy(new Error("no answer within 10 s")), timeoutMs)
    request.on("timeout", () => request.destroy(new Error("no answer within 10 s")))
    request.on("error", (error) =>
      resume(Effect.fail(new PostbackSendFailed({ error: error.message, durationMs: elapsed() })))
    )
    request.on("close", () => clearTimeout(deadline))
    request.end(body)
    return Effect.sync(() => request.destroy())
  })

export const layer = Layer.succeed(
  PostbackSender,
  PostbackSender.of({
    send: (postback) => Postback.sign(postback).pipe(Effect.flatMap((signature) => post(postback, signature)))
  })
)
