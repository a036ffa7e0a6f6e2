// The sandbox acquirer's reversals (issue 24): a charge answered after its invoice moved on is given back under its
// own reference, once, and can be asked about; and live mode, which no sandbox can take, says so before anything of
// a payment is recorded.
import { describe, expect, it } from "@effect/vitest"
import { CardAcquirer, type CardChargeRequest } from "@fatura/application"
import { Cents } from "@fatura/domain"
import { Effect, Option } from "effect"
import { SandboxCardAcquirer } from "../src/index.js"

const request = (reference: string, number: string): CardChargeRequest => ({
  reference,
  mode: "test",
  amount: Cents.make(15_000),
  installments: 1,
  card: {
    _tag: "Card",
    number,
    holderName: "Maria Souza",
    expirationMonth: 12,
    expirationYear: 2030,
    securityCode: "123",
    brand: "visa"
  },
  threeDSecure: "unauthenticated"
})

describe("SandboxCardAcquirer", () => {
  it.effect("gives an approved charge back once, a repeat answered as the first, and says so when asked", () =>
    Effect.gen(function* () {
      const acquirer = yield* CardAcquirer
      expect(yield* acquirer.charge(request("late-1", "4111111111111111"))).toEqual({ _tag: "Approved" })
      expect(yield* acquirer.findReversal("test", "late-1")).toEqual(Option.none())
      expect(yield* acquirer.reverse("test", "late-1")).toEqual({ _tag: "Voided" })
      expect(yield* acquirer.reverse("test", "late-1")).toEqual({ _tag: "Voided" })
      expect(yield* acquirer.findReversal("test", "late-1")).toEqual(Option.some({ _tag: "Voided" }))
      // The charge stays what it was: a repeat of it is answered as before, and charges nothing again.
      expect(yield* acquirer.lookup("test", "late-1")).toEqual({ _tag: "Approved" })
    }).pipe(Effect.provide(SandboxCardAcquirer.layer))
  )

  it.effect("voids a reference given back before its charge arrived: the charge is refused when it comes", () =>
    Effect.gen(function* () {
      const acquirer = yield* CardAcquirer
      expect(yield* acquirer.reverse("test", "overtaken")).toEqual({ _tag: "Voided" })
      expect(yield* acquirer.lookup("test", "overtaken")).toEqual({ _tag: "Void" })
      expect(yield* acquirer.charge(request("overtaken", "4111111111111111"))).toEqual({
        _tag: "Refused",
        reason: "processing_error"
      })
    }).pipe(Effect.provide(SandboxCardAcquirer.layer))
  )

  it.effect("takes test mode, and refuses live mode in everything, being asked first included", () =>
    Effect.gen(function* () {
      const acquirer = yield* CardAcquirer
      yield* acquirer.available("test")
      const refusals = [
        yield* Effect.flip(acquirer.available("live")),
        yield* Effect.flip(acquirer.reverse("live", "live-1")),
        yield* Effect.flip(acquirer.findReversal("live", "live-1"))
      ]
      expect(refusals.map((refusal) => [refusal._tag, refusal.message])).toEqual(
        Array.from({ length: 3 }, () => ["AcquirerUnavailable", "no acquirer is configured for live card payments"])
      )
    }).pipe(Effect.provide(SandboxCardAcquirer.layer))
  )
})
