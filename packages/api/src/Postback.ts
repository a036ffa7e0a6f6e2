// Postback signatures (SPEC 8.2, 8.5): how each delivery is signed, and how a receiver checks one and gets the typed event.
// Only Web Crypto, no Node modules, so receivers can verify on any runtime that has `crypto.subtle`.
import { type InvoiceStatus, InvoiceTransaction, Timestamp, Withdrawal, WithdrawalObject } from "@fatura/domain"
import { Clock, Effect, Result, Schema } from "effect"
import { Hex } from "effect/encoding"

export const InvoiceEventType = Schema.Literals([
  "invoice.created",
  "invoice.paid",
  "invoice.refused",
  "invoice.expired",
  "invoice.partially_refunded",
  "invoice.refunded",
  "invoice.chargedback",
  "invoice.refund_pending",
  "invoice.refund_failed",
  "invoice.payment_rejected",
  "invoice.boleto_registered",
  "invoice.boleto_rejected"
] as const satisfies ReadonlyArray<InvoiceStatus.EventType>)

export const WithdrawalEventType = Schema.Literals(Withdrawal.eventTypes)

export const PostbackEventType = Schema.Literals([...InvoiceEventType.literals, ...WithdrawalEventType.literals])
export type PostbackEventType = typeof PostbackEventType.Type

export const PostbackEventId = Schema.String.check(
  Schema.isPattern(/^evt_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, {
    expected: "evt_ followed by a lowercase UUID"
  })
)

/**
 * Why it happened, on the events whose type alone does not say: a refund waiting for the pix provider
 * (`invoice.refund_pending`), a refund refused (`invoice.refund_failed`), a payment rejected
 * (`invoice.payment_rejected`), a boleto the bank rejected (`invoice.boleto_rejected`), a boleto paid at the bank for
 * another amount (`invoice.paid`), a withdrawal that failed (`withdrawal.failed`).
 */
const reason = Schema.optionalKey(Schema.String)

/** An event of an invoice (SPEC 8.1): `data` is the invoice as of the event. */
export const InvoiceEvent = Schema.Struct({
  id: PostbackEventId,
  type: InvoiceEventType,
  created_at: Timestamp.Timestamp,
  livemode: Schema.Boolean,
  data: InvoiceTransaction.InvoiceTransaction,
  reason
}).annotate({ identifier: "InvoiceEvent" })
export type InvoiceEvent = typeof InvoiceEvent.Type

/** An event of a withdrawal (SPEC 13.3): `data` is the withdrawal as of the event. */
export const WithdrawalEvent = Schema.Struct({
  id: PostbackEventId,
  type: WithdrawalEventType,
  created_at: Timestamp.Timestamp,
  livemode: Schema.Boolean,
  data: WithdrawalObject.WithdrawalObject,
  reason
}).annotate({ identifier: "WithdrawalEvent" })
export type WithdrawalEvent = typeof WithdrawalEvent.Type

/** An event (SPEC 8.1) as a postback body carries it, told apart by its `type`. */
export const PostbackEvent = Schema.Union([InvoiceEvent, WithdrawalEvent]).annotate({ identifier: "PostbackEvent" })
export type PostbackEvent = typeof PostbackEvent.Type

// Header names in lower case, as Node and the Fetch API hand them to receivers.
export const signatureHeader = "x-fatura-signature"
export const eventIdHeader = "x-fatura-event-id"
export const eventTypeHeader = "x-fatura-event-type"

export const defaultToleranceSeconds = 300

export const PostbackVerificationReason = Schema.Literals([
  "missing_signature",
  "malformed_signature",
  "timestamp_out_of_tolerance",
  "signature_mismatch",
  "malformed_body"
])
export type PostbackVerificationReason = typeof PostbackVerificationReason.Type

export class PostbackVerificationError extends Schema.TaggedError<PostbackVerificationError>()(
  "PostbackVerificationError",
  { reason: PostbackVerificationReason, message: Schema.String }
) {}

export interface SignOptions {
  /** Every secret that signs, newest first: the current one and each rolled one still overlapping (SPEC 4.8). */
  readonly secrets: ReadonlyArray<string>
  /** Unix seconds. */
  readonly timestamp: number
  /** The exact body that is sent. */
  readonly body: string
}

export interface VerifyOptions {
  /** The raw body as received: re-serialized JSON does not match the signature. */
  readonly body: string
  /** The value of the `X-Fatura-Signature` header, absent when the request had none. */
  readonly signature: string | undefined | null
  readonly secret: string
  /** How far the signature's timestamp may be from now, either way; 300 s unless given. */
  readonly toleranceSeconds?: number
  /** Unix seconds; the current time of effect's `Clock` unless given. */
  readonly now?: number
}

const encoder = new TextEncoder()

// The timestamp is taken as the header writes it, so the signed text is exactly what the sender signed.
const signatureOf = (secret: string, timestamp: string, body: string): Effect.Effect<string> =>
  secret === ""
    ? // An empty key would let anyone sign; it can only come from a missing configuration.
      Effect.die(new Error("a postback secret must not be empty"))
    : Effect.promise(async () => {
        const key = await crypto.subtle.importKey(
          "raw",
          encoder.encode(secret),
          { name: "HMAC", hash: "SHA-256" },
          false,
          ["sign"]
        )
        return Hex.encode(new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(`${timestamp}.${body}`))))
      })

/** The `X-Fatura-Signature` value of a delivery: `t=<timestamp>,v1=<hex>`, one `v1` per secret, in order. */
export const sign: (options: SignOptions) => Effect.Effect<string> = Effect.fn("Postback.sign")(function* (
  options: SignOptions
) {
  if (options.secrets.length === 0) return yield* Effect.die(new Error("a postback needs at least one secret"))
  if (!Number.isSafeInteger(options.timestamp) || options.timestamp < 0) {
    return yield* Effect.die(new Error(`a postback timestamp must be whole unix seconds, got ${options.timestamp}`))
  }
  const timestamp = String(options.timestamp)
  const signatures = yield* Effect.forEach(options.secrets, (secret) => signatureOf(secret, timestamp, options.body))
  return [`t=${timestamp}`, ...signatures.map((signature) => `v1=${signature}`)].join(",")
})

interface ParsedSignature {
  readonly timestamp: string
  readonly signatures: ReadonlyArray<string>
}

const parseSignature = (header: string): Result.Result<ParsedSignature, string> => {
  let timestamp: string | undefined
  const signatures: Array<string> = []
  for (const part of header.split(",")) {
    const equals = part.indexOf("=")
    if (equals <= 0) return Result.fail(`"${part.trim()}" is not a scheme=value pair`)
    const scheme = part.slice(0, equals).trim()
    const value = part.slice(equals + 1).trim()
    if (scheme === "t") {
      // A second t= would leave it open which one the signature covers.
      if (timestamp !== undefined) return Result.fail("has more than one t=")
      if (!/^\d{1,12}$/.test(value)) return Result.fail("t= is not unix seconds")
      timestamp = value
    } else if (scheme === "v1") {
      if (!/^[0-9a-fA-F]{64}$/.test(value)) return Result.fail("a v1= is not 64 hex digits")
      signatures.push(value.toLowerCase())
    }
    // Other schemes are skipped, so that a new one can be sent alongside v1 without breaking receivers.
  }
  if (timestamp === undefined) return Result.fail("has no t=")
  if (signatures.length === 0) return Result.fail("has no v1=")
  return Result.succeed({ timestamp, signatures })
}

// Every character is looked at whatever the earlier ones were, so the time taken does not tell a forger how
// much of a guess was right. Lengths are equal here: both are SHA-256 hex.
const equalInConstantTime = (left: string, right: string): boolean => {
  if (left.length !== right.length) return false
  let difference = 0
  for (let index = 0; index < left.length; index++) difference |= left.charCodeAt(index) ^ right.charCodeAt(index)
  return difference === 0
}

const decodeEvent = Schema.decodeUnknownEffect(Schema.fromJsonString(PostbackEvent))

const failure = (reason: PostbackVerificationReason, message: string) =>
  Effect.fail(new PostbackVerificationError({ reason, message }))

/**
 * Checks a postback's signature against the company's webhook secret and returns the event it carries.
 * The checks run header, timestamp, signature, body; the first that fails gives the error's `reason`.
 */
export const verify: (options: VerifyOptions) => Effect.Effect<PostbackEvent, PostbackVerificationError> = Effect.fn(
  "Postback.verify"
)(function* (options: VerifyOptions) {
  if (options.signature === undefined || options.signature === null || options.signature.trim() === "") {
    return yield* failure("missing_signature", `the ${signatureHeader} header is missing`)
  }
  const parsed = parseSignature(options.signature)
  if (Result.isFailure(parsed)) {
    return yield* failure("malformed_signature", `the ${signatureHeader} header ${parsed.failure}`)
  }
  const { signatures, timestamp } = parsed.success
  const now = options.now ?? Math.floor((yield* Clock.currentTimeMillis) / 1000)
  const tolerance = options.toleranceSeconds ?? defaultToleranceSeconds
  // Bounds replays: a captured delivery stops being accepted once it is older than the tolerance.
  if (Math.abs(now - Number(timestamp)) > tolerance) {
    return yield* failure(
      "timestamp_out_of_tolerance",
      `the signature's timestamp ${timestamp} is more than ${tolerance} s from now (${now})`
    )
  }
  const expected = yield* signatureOf(options.secret, timestamp, options.body)
  // All of them are compared, not up to the first match, for the same reason the comparison is constant-time.
  const matches = signatures.filter((signature) => equalInConstantTime(signature, expected)).length
  if (matches === 0) {
    return yield* failure("signature_mismatch", "no v1 signature matches the body, the timestamp and the secret")
  }
  return yield* decodeEvent(options.body).pipe(
    Effect.mapError(
      (error) =>
        new PostbackVerificationError({
          reason: "malformed_body",
          message: `the body is not a postback event: ${error.message}`
        })
    )
  )
})

/** {@link verify} for receivers that do not use Effect: resolves with the event or rejects with the error. */
export const verifyPostback = (options: VerifyOptions): Promise<PostbackEvent> => Effect.runPromise(verify(options))
