// SPEC 8.2 and 8.5: postbacks signed as Fatura sends them, and verified as a receiver checks them.
import { createHmac } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { Cents, type Company, InvoiceStatus, type Timestamp, Withdrawal, WithdrawalObject } from "@fatura/domain"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { Postback } from "../src/index.js"
import { sampleEvent, secureId } from "./support/SampleEvent.js"

const {
  eventIdHeader,
  eventTypeHeader,
  PostbackEventType,
  PostbackVerificationError,
  sign,
  signatureHeader,
  verify,
  verifyPostback
} = Postback
type PostbackVerificationError = Postback.PostbackVerificationError
type PostbackVerificationReason = Postback.PostbackVerificationReason
type VerifyOptions = Postback.VerifyOptions

const secret = "whsec_7pQ2mZ9kLx4Vb8Nc1Rt6Yw3Hd5Fg0Js2"
const oldSecret = "whsec_Ua3Ke8Qo1Wm6Zr9Tx2Lp5Vn7Bc4Dh0Gy3"
const otherSecret = "whsec_Mf6Sa1Xq8Ej3Rk0Hu5Wb9Pz2Tc7Lv4No1"

// 2026-11-22T01:47:15Z, in unix seconds.
const signedAt = 1_795_312_035

const body = JSON.stringify(sampleEvent)

// What the receiver is told, computed independently of the code under test.
const hmacHex = (key: string, timestamp: number, payload: string) =>
  createHmac("sha256", key).update(`${timestamp}.${payload}`).digest("hex")

const verifyFails = (options: VerifyOptions) => verify(options).pipe(Effect.flip)

const expectReason = (error: PostbackVerificationError, reason: PostbackVerificationReason) => {
  expect(error).toBeInstanceOf(PostbackVerificationError)
  expect(error._tag).toBe("PostbackVerificationError")
  expect(error.reason).toBe(reason)
  expect(error.message.length).toBeGreaterThan(0)
}

describe("Postback", () => {
  describe("sign", () => {
    it.effect('writes t=<unix seconds>,v1=<HMAC-SHA256 of "<t>.<body>"> in lowercase hex', () =>
      Effect.gen(function* () {
        const header = yield* sign({ secrets: [secret], timestamp: signedAt, body })
        expect(header).toBe(`t=${signedAt},v1=${hmacHex(secret, signedAt, body)}`)
        expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
      })
    )

    it.effect("signs with every secret while a rolled one overlaps, in the order given", () =>
      Effect.gen(function* () {
        const header = yield* sign({ secrets: [secret, oldSecret], timestamp: signedAt, body })
        expect(header).toBe(
          `t=${signedAt},v1=${hmacHex(secret, signedAt, body)},v1=${hmacHex(oldSecret, signedAt, body)}`
        )
      })
    )

    it.effect("is a defect without a secret, or with an empty one", () =>
      Effect.gen(function* () {
        const none = yield* sign({ secrets: [], timestamp: signedAt, body }).pipe(Effect.exit)
        const empty = yield* sign({ secrets: [""], timestamp: signedAt, body }).pipe(Effect.exit)
        expect(none._tag).toBe("Failure")
        expect(empty._tag).toBe("Failure")
      })
    )
  })

  describe("verify", () => {
    it.effect("returns the typed event of a correctly signed postback", () =>
      Effect.gen(function* () {
        const signature = yield* sign({ secrets: [secret], timestamp: signedAt, body })
        const event = yield* verify({ body, signature, secret, now: signedAt })
        expect(event).toEqual(sampleEvent)
        expect(event.type).toBe("invoice.paid")
        expect("secureId" in event.data && event.data.secureId).toBe(secureId)
      })
    )

    it.effect("accepts a signature computed by anyone with the secret, not only by sign", () =>
      Effect.gen(function* () {
        const signature = `t=${signedAt},v1=${hmacHex(secret, signedAt, body)}`
        const event = yield* verify({ body, signature, secret, now: signedAt })
        expect(event.id).toBe(sampleEvent.id)
      })
    )

    it.effect("rejects a body changed by one byte", () =>
      Effect.gen(function* () {
        const signature = yield* sign({ secrets: [secret], timestamp: signedAt, body })
        const tampered = body.replace('"amount":15000', '"amount":15001')
        expect(tampered).not.toBe(body)
        expect(tampered.length).toBe(body.length)
        expectReason(yield* verifyFails({ body: tampered, signature, secret, now: signedAt }), "signature_mismatch")
      })
    )

    it.effect("rejects a timestamp changed in the header, since the signature covers it", () =>
      Effect.gen(function* () {
        const signature = yield* sign({ secrets: [secret], timestamp: signedAt, body })
        const moved = signature.replace(`t=${signedAt}`, `t=${signedAt + 1}`)
        expectReason(yield* verifyFails({ body, signature: moved, secret, now: signedAt }), "signature_mismatch")
      })
    )

    it.effect("rejects a signature with one hex digit changed", () =>
      Effect.gen(function* () {
        const signature = yield* sign({ secrets: [secret], timestamp: signedAt, body })
        const last = signature.at(-1) === "0" ? "1" : "0"
        const forged = signature.slice(0, -1) + last
        expectReason(yield* verifyFails({ body, signature: forged, secret, now: signedAt }), "signature_mismatch")
      })
    )

    it.effect("rejects a postback signed with another secret", () =>
      Effect.gen(function* () {
        const signature = yield* sign({ secrets: [otherSecret], timestamp: signedAt, body })
        expectReason(yield* verifyFails({ body, signature, secret, now: signedAt }), "signature_mismatch")
      })
    )

    it.effect("accepts a postback signed during a roll with either secret alone, and with no other", () =>
      Effect.gen(function* () {
        const signature = yield* sign({ secrets: [secret, oldSecret], timestamp: signedAt, body })
        const withNew = yield* verify({ body, signature, secret, now: signedAt })
        const withOld = yield* verify({ body, signature, secret: oldSecret, now: signedAt })
        expect(withNew).toEqual(sampleEvent)
        expect(withOld).toEqual(sampleEvent)
        expectReason(yield* verifyFails({ body, signature, secret: otherSecret, now: signedAt }), "signature_mismatch")
      })
    )

    it.effect("accepts a postback signed by every secret rolled within 24 h with any one of them", () =>
      Effect.gen(function* () {
        const secrets = [
          secret,
          oldSecret,
          "whsec_Gk2Rn8Vt4Yc1Ls7Pb3Xe9Qm5Hw0Ja6Zd",
          "whsec_Tq9Lm3Wd7Hs1Kb5Ny8Cf2Rv6Xp0Ge4Ju"
        ]
        const signature = yield* sign({ secrets, timestamp: signedAt, body })
        expect(signature.match(/v1=/g)).toHaveLength(4)
        for (const each of secrets)
          expect(yield* verify({ body, signature, secret: each, now: signedAt })).toEqual(sampleEvent)
        expectReason(yield* verifyFails({ body, signature, secret: otherSecret, now: signedAt }), "signature_mismatch")
      })
    )

    it.effect("takes t= and v1= in any order, skips unknown schemes and tolerates spaces and upper case", () =>
      Effect.gen(function* () {
        const hex = hmacHex(secret, signedAt, body)
        const headers = [
          `v1=${hex},t=${signedAt}`,
          `v0=whatever,t=${signedAt},v2=${"ab".repeat(40)},v1=${hex}`,
          `t=${signedAt},v1=${"0".repeat(64)},v1=${hex}`,
          `t=${signedAt}, v1=${hex.toUpperCase()}`
        ]
        for (const signature of headers) {
          const event = yield* verify({ body, signature, secret, now: signedAt })
          expect(event.id).toBe(sampleEvent.id)
        }
      })
    )

    describe("tolerance", () => {
      const at = (now: number, toleranceSeconds?: number) =>
        Effect.gen(function* () {
          const signature = yield* sign({ secrets: [secret], timestamp: signedAt, body })
          return yield* verify({
            body,
            signature,
            secret,
            now,
            ...(toleranceSeconds === undefined ? {} : { toleranceSeconds })
          }).pipe(Effect.result)
        })

      it.effect("accepts a signature up to 300 s old or 300 s ahead", () =>
        Effect.gen(function* () {
          for (const now of [signedAt + 299, signedAt + 300, signedAt - 299, signedAt - 300]) {
            const result = yield* at(now)
            expect(result._tag, `now = t ${now - signedAt >= 0 ? "+" : "-"} ${Math.abs(now - signedAt)}`).toBe(
              "Success"
            )
          }
        })
      )

      it.effect("rejects a signature 301 s old or 301 s in the future", () =>
        Effect.gen(function* () {
          for (const now of [signedAt + 301, signedAt - 301]) {
            const result = yield* at(now)
            if (result._tag === "Success") expect.fail(`accepted at t ${now - signedAt}`)
            else expectReason(result.failure, "timestamp_out_of_tolerance")
          }
        })
      )

      it.effect("takes the tolerance it is given", () =>
        Effect.gen(function* () {
          expect((yield* at(signedAt + 10, 10))._tag).toBe("Success")
          const late = yield* at(signedAt + 11, 10)
          if (late._tag === "Success") expect.fail("accepted 11 s late with a 10 s tolerance")
          else expectReason(late.failure, "timestamp_out_of_tolerance")
          expect((yield* at(signedAt + 3_600, 7_200))._tag).toBe("Success")
        })
      )

      it.effect("reads the current time from effect's Clock when now is not given", () =>
        Effect.gen(function* () {
          const signature = yield* sign({ secrets: [secret], timestamp: signedAt, body })
          yield* TestClock.setTime((signedAt + 299) * 1000)
          expect((yield* verify({ body, signature, secret })).id).toBe(sampleEvent.id)
          yield* TestClock.adjust("2 seconds")
          expectReason(yield* verifyFails({ body, signature, secret }), "timestamp_out_of_tolerance")
        })
      )
    })

    it.effect("rejects a missing header", () =>
      Effect.gen(function* () {
        for (const signature of [undefined, null, "", "  "]) {
          expectReason(yield* verifyFails({ body, signature, secret, now: signedAt }), "missing_signature")
        }
      })
    )

    it.effect("rejects a malformed header: garbage, no t=, no v1=, a bad t= or v1=, two t=", () =>
      Effect.gen(function* () {
        const hex = hmacHex(secret, signedAt, body)
        const headers = [
          "garbage",
          "sha256=abc,,",
          hex,
          `v1=${hex}`,
          `t=${signedAt}`,
          `t=${signedAt},v0=${hex}`,
          `t=soon,v1=${hex}`,
          `t=-${signedAt},v1=${hex}`,
          `t=${signedAt},v1=${hex.slice(1)}`,
          `t=${signedAt},v1=${"z".repeat(64)}`,
          `t=${signedAt},t=${signedAt},v1=${hex}`,
          `t=${signedAt},v1=${hex},`
        ]
        for (const signature of headers) {
          const error = yield* verifyFails({ body, signature, secret, now: signedAt })
          expect(error.reason, signature).toBe("malformed_signature")
          expectReason(error, "malformed_signature")
        }
      })
    )

    it.effect("rejects a correctly signed body that is not an event", () =>
      Effect.gen(function* () {
        const bodies = [
          "not json",
          "",
          "{}",
          JSON.stringify({ ...sampleEvent, type: "invoice.updated" }),
          JSON.stringify({ ...sampleEvent, id: "9b2d4e61-0c3f-4a8e-b715-2f6d8c9e0a13" }),
          JSON.stringify({ ...sampleEvent, created_at: "2026-11-22T01:47:14Z" }),
          JSON.stringify({ ...sampleEvent, data: { ...sampleEvent.data, amount: "15000" } })
        ]
        for (const payload of bodies) {
          const signature = yield* sign({ secrets: [secret], timestamp: signedAt, body: payload })
          const error = yield* verifyFails({ body: payload, signature, secret, now: signedAt })
          expect(error.reason, payload.slice(0, 60)).toBe("malformed_body")
          expectReason(error, "malformed_body")
        }
      })
    )

    it.effect("decodes every event type the domain records", () =>
      Effect.gen(function* () {
        const recorded = [
          ...InvoiceStatus.InvoiceStatus.literals.map(InvoiceStatus.eventType),
          ...InvoiceStatus.eventsWithoutMove
        ]
        expect([...PostbackEventType.literals].sort()).toEqual(
          [...new Set([...recorded, ...Withdrawal.eventTypes])].sort()
        )
        for (const type of recorded) {
          const payload = JSON.stringify({ ...sampleEvent, type })
          const signature = yield* sign({ secrets: [secret], timestamp: signedAt, body: payload })
          expect((yield* verify({ body: payload, signature, secret, now: signedAt })).type).toBe(type)
        }
        // The events that say why carry the reason, which a receiver reads as it was sent.
        const rejected = JSON.stringify({ ...sampleEvent, type: "invoice.payment_rejected", reason: "another amount" })
        const signature = yield* sign({ secrets: [secret], timestamp: signedAt, body: rejected })
        expect((yield* verify({ body: rejected, signature, secret, now: signedAt })).reason).toBe("another amount")
        // A withdrawal's event carries the withdrawal; an invoice's type with it is no event of the contract.
        const at = sampleEvent.created_at as Timestamp.Timestamp
        const withdrawal = WithdrawalObject.render({
          id: "wd_0b6f1c2e-3d4a-4b5c-8d6e-7f8091a2b3c4",
          companyId: 1 as Company.CompanyId,
          mode: "test",
          amount: Cents.make(5_000),
          fee: Cents.make(367),
          status: "paid",
          sources: [{ balance: "pix", amount: Cents.make(5_367) }],
          destination: {
            bank: {
              code: "341",
              name: "Itaú Unibanco S.A.",
              agency: "0001",
              account: "12345678",
              digit: "9",
              type: "corrente"
            },
            holderName: "Loja Exemplo Ltda",
            holderDocument: "11444777000161"
          },
          rail: "pix",
          endToEndId: "E0000000020261125150000B6F1C2E3D4A",
          failureReason: null,
          createdAt: at,
          updatedAt: at,
          sentAt: at,
          paidAt: at
        })
        for (const type of Withdrawal.eventTypes) {
          const payload = JSON.stringify({ ...sampleEvent, type, data: withdrawal })
          const signed = yield* sign({ secrets: [secret], timestamp: signedAt, body: payload })
          const event = yield* verify({ body: payload, signature: signed, secret, now: signedAt })
          expect([event.type, event.data]).toEqual([type, withdrawal])
        }
        const mixed = JSON.stringify({ ...sampleEvent, type: "invoice.paid", data: withdrawal })
        const mixedSignature = yield* sign({ secrets: [secret], timestamp: signedAt, body: mixed })
        expect(
          yield* Effect.flip(verify({ body: mixed, signature: mixedSignature, secret, now: signedAt }))
        ).toMatchObject({
          reason: "malformed_body"
        })
      })
    )
  })

  describe("verifyPostback", () => {
    it("resolves with the event of a correctly signed postback", async () => {
      const timestamp = Math.floor(Date.now() / 1000)
      const signature = `t=${timestamp},v1=${hmacHex(secret, timestamp, body)}`
      await expect(verifyPostback({ body, signature, secret })).resolves.toEqual(sampleEvent)
    })

    it("rejects with the typed error otherwise", async () => {
      const timestamp = Math.floor(Date.now() / 1000)
      const signature = `t=${timestamp},v1=${hmacHex(otherSecret, timestamp, body)}`
      const error = await verifyPostback({ body, signature, secret }).then(
        () => expect.fail("resolved"),
        (error: unknown) => error
      )
      expect(error).toBeInstanceOf(PostbackVerificationError)
      expect(error).toMatchObject({ reason: "signature_mismatch" })
      const stale = `t=${timestamp - 301},v1=${hmacHex(secret, timestamp - 301, body)}`
      await expect(verifyPostback({ body, signature: stale, secret })).rejects.toMatchObject({
        _tag: "PostbackVerificationError",
        reason: "timestamp_out_of_tolerance"
      })
    })
  })

  it("names the delivery headers of SPEC 8.2, in the lower case receivers read them in", () => {
    expect(signatureHeader).toBe("x-fatura-signature")
    expect(eventIdHeader).toBe("x-fatura-event-id")
    expect(eventTypeHeader).toBe("x-fatura-event-type")
  })
})
