// The simulator, which is not part of the API Pix and asks for no credentials: `POST /simulator/pay` plays a payer
// paying a charge, immediate or with a due date (by txid or by its pix copia e cola), and `/simulator/switches` makes
// the PSP slow, failing, forgetful of its notifications, or refusing refunds (later, or when they are asked for).
import { Effect, Layer, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import * as BrCode from "./BrCode.js"
import { Charges } from "./Charges.js"
import * as CobWire from "./CobWire.js"
import * as Money from "./Money.js"
import { Payments } from "./Payments.js"
import * as PixWire from "./PixWire.js"
import * as Problem from "./Problem.js"
import { SwitchChanges, Switches } from "./Switches.js"

const PayRequest = Schema.Struct({
  txid: Schema.optionalKey(Schema.String),
  pixCopiaECola: Schema.optionalKey(Schema.String),
  /** Another amount than the charge's, to play a payer who paid wrong. */
  valor: Schema.optionalKey(Money.Amount),
  infoPagador: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(140)))
})

const badRequest = (detail: string) => Problem.simulator(400, "Requisição inválida", detail)

/** The body of a request decoded by `schema`, or the 400 that says why not. */
const bodyOf = <S extends Schema.Top>(schema: S) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const body = yield* Effect.option(request.json)
    if (Option.isNone(body)) return Option.none<S["Type"]>()
    return yield* Effect.option(Schema.decodeUnknownEffect(schema)(body.value))
  })

/** The txid a payment names, directly or through the location in its pix copia e cola. */
const txidOf = (request: typeof PayRequest.Type) =>
  Effect.gen(function* () {
    if (request.txid !== undefined) return Option.some(request.txid)
    const token = Option.flatMap(BrCode.locationOf(request.pixCopiaECola ?? ""), (location) =>
      Option.fromNullishOr(CobWire.tokenOfLocation(location))
    )
    if (Option.isNone(token)) return Option.none<string>()
    return Option.map(yield* (yield* Charges).findByLocation(token.value), (charge) => charge.txid)
  })

const pay = Effect.gen(function* () {
  const request = yield* bodyOf(PayRequest)
  if (Option.isNone(request) || (request.value.txid === undefined) === (request.value.pixCopiaECola === undefined)) {
    return badRequest("Esperado um JSON com txid ou pixCopiaECola (um dos dois), e opcionalmente valor e infoPagador.")
  }
  const txid = yield* txidOf(request.value)
  if (Option.isNone(txid)) return Problem.simulator(404, "Não Encontrado", "Nenhuma cobrança deste PSP nesse código.")
  const { valor, infoPagador } = request.value
  return yield* (yield* Payments)
    .pay(txid.value, {
      ...(valor === undefined ? {} : { valor: Money.toCents(valor) }),
      ...(infoPagador === undefined ? {} : { infoPagador })
    })
    .pipe(
      Effect.map(({ pix, charge, notification }) =>
        HttpServerResponse.jsonUnsafe(
          { pix: PixWire.pix(pix), charge: { txid: charge.txid, status: charge.status }, notification },
          { status: 201 }
        )
      ),
      Effect.catchTags({
        ChargeNotFound: () =>
          Effect.succeed(Problem.simulator(404, "Não Encontrado", `Nenhuma cobrança com o txid ${txid.value}.`)),
        ChargeNotPayable: (refused) =>
          Effect.succeed(Problem.simulator(409, "Cobrança não pagável", `Não se pode pagar: ${refused.reason}.`))
      })
    )
})

const currentSwitches = Switches.use((switches) => switches.current)

const showSwitches = Effect.map(currentSwitches, (values) => HttpServerResponse.jsonUnsafe(values))

const changeSwitches = Effect.gen(function* () {
  const changes = yield* bodyOf(SwitchChanges)
  if (Option.isNone(changes)) {
    return badRequest(
      "Esperado um JSON com slowMs (0 a 60000), failing, dropNotifications, refuseRefunds ou refuseRefundRequests."
    )
  }
  return HttpServerResponse.jsonUnsafe(yield* (yield* Switches).change(changes.value))
})

export const layer = Layer.mergeAll(
  HttpRouter.add("POST", "/simulator/pay", pay),
  HttpRouter.add("GET", "/simulator/switches", showSwitches),
  HttpRouter.add("POST", "/simulator/switches", changeSwitches)
)
