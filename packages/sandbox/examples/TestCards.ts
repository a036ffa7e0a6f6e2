// The sandbox acquirer behind the application's CardAcquirer port: each test card gets the answer it stands for,
// every other valid number is approved, and live mode is refused, since no live acquirer stands behind it. A charge
// is made once per reference: a repeat gets the first answer, and a reference looked up before its charge arrived is
// void, so that charge is refused when it comes. A charge is given back (voided) once per reference too, and a
// reference given back before its charge arrived is void as well.
import { CardAcquirer, type ThreeDSecureOutcome } from "@fatura/application"
import { Cents } from "@fatura/domain"
import { SandboxCardAcquirer } from "@fatura/sandbox"
import { Effect, Option } from "effect"

const card = (number: string) =>
  ({
    _tag: "Card",
    number,
    holderName: "Maria Souza",
    expirationMonth: 12,
    expirationYear: 2030,
    securityCode: "123",
    brand: "visa"
  }) as const

const program = Effect.gen(function* () {
  const acquirer = yield* CardAcquirer
  const charge = (reference: string, number: string, threeDSecure: ThreeDSecureOutcome = "unauthenticated") =>
    acquirer
      .charge({
        reference,
        mode: "test",
        amount: Cents.make(15_000),
        installments: 1,
        card: card(number),
        threeDSecure
      })
      .pipe(Effect.map((result) => (result._tag === "Approved" ? "approved" : `refused: ${result.reason}`)))

  for (const number of [
    "4111111111111111",
    "4000000000000002",
    "4000000000009995",
    "4000000000000069",
    "4000000000000119",
    "4000002760003184"
  ]) {
    console.log(`${number}  ${yield* charge(`order-${number}`, number)}`)
  }
  console.log(
    `4000002760003184  ${yield* charge("order-3ds", "4000002760003184", "authenticated")} (3-D Secure authenticated)`
  )
  console.log(
    `order-4000000000000002 again with another card: ${yield* charge("order-4000000000000002", "4111111111111111")}`
  )
  console.log(`lookup of order-lost: ${(yield* acquirer.lookup("test", "order-lost"))._tag}`)
  console.log(`order-lost arriving after it: ${yield* charge("order-lost", "4111111111111111")}`)

  const reversalOf = (reference: string) =>
    acquirer
      .findReversal("test", reference)
      .pipe(Effect.map(Option.match({ onNone: () => "none", onSome: (reversal) => reversal._tag })))
  const reverse = (reference: string) =>
    acquirer.reverse("test", reference).pipe(Effect.map((reversal) => reversal._tag))
  const approved = "order-4111111111111111"
  console.log(`reversal of ${approved}: ${yield* reversalOf(approved)}`)
  console.log(`reverse ${approved}: ${yield* reverse(approved)}, again: ${yield* reverse(approved)}`)
  console.log(`reversal of ${approved}: ${yield* reversalOf(approved)}`)
  console.log(`reverse order-unsent: ${yield* reverse("order-unsent")}`)
  console.log(`order-unsent arriving after it: ${yield* charge("order-unsent", "4111111111111111")}`)

  const live = yield* acquirer
    .charge({
      reference: "order-live",
      mode: "live",
      amount: Cents.make(15_000),
      installments: 1,
      card: card("4111111111111111"),
      threeDSecure: "unauthenticated"
    })
    .pipe(Effect.flip)
  console.log(`live mode: ${live.message}`)
})

Effect.runPromise(program.pipe(Effect.provide(SandboxCardAcquirer.layer)))
