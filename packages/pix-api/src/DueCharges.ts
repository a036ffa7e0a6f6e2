// Charges with a due date (`cobv`), the pix side of a hybrid boleto: made with `PUT /cobv/{txid}` to the platform's
// key, payable until the boleto's due date ends and never after it (`validadeAposVencimento` 0), and removed with
// `PATCH /cobv/{txid}` once the boleto is paid at the bank. A removal the PSP refuses because the charge is removed
// already (it alters no charge that is not ATIVA) is read back with `GET /cobv/{txid}`, and succeeds.
import type { DueCharges } from "@fatura/application"
import { Effect, Option } from "effect"
import * as ApiPixAnswers from "./ApiPixAnswers.js"
import * as PixAmount from "./PixAmount.js"
import type { PixApiSettings } from "./PixApiSettings.js"
import { cut, logged, type PspCalls, type Read, readCharge, refusalOf, segment } from "./PspCalls.js"
import * as PspExchange from "./PspExchange.js"

const pathOf = (txid: string) => `/cobv/${segment(txid)}`

/** The answer of a removal: the charge as it now stands, which must be removed. */
const readRemoval: Read<void> = (answer, what) =>
  Effect.flatMap(PspExchange.decode(ApiPixAnswers.RevisedCharge, answer, what), (revised) =>
    ApiPixAnswers.toChargeStatus(revised.status) === "removed"
      ? Effect.void
      : Effect.fail(PspExchange.unavailable(`the PSP's answer to ${what} is ${revised.status}, not a removal`))
  )

/** The charges with a due date of the account `settings` name, through its calls. */
export const make = (settings: PixApiSettings, calls: PspCalls): DueCharges => ({
  charge: (request) =>
    calls
      .must(
        "PUT",
        pathOf(request.txid),
        {
          calendario: { dataDeVencimento: request.dueDate, validadeAposVencimento: 0 },
          devedor: {
            [request.payer.document.type]: request.payer.document.number,
            nome: cut(request.payer.name, 200)
          },
          valor: { original: PixAmount.fromCents(request.amount) },
          // The platform's key, as for an immediate charge: the money comes to the platform's account.
          chave: settings.pixKey,
          ...(request.summary === "" ? {} : { solicitacaoPagador: cut(request.summary, 140) })
        },
        (answer, what) =>
          Effect.map(PspExchange.decode(ApiPixAnswers.CreatedCharge, answer, what), (created) => ({
            qrCode: created.pixCopiaECola
          }))
      )
      .pipe(logged),

  remove: (txid) =>
    Effect.gen(function* () {
      const { what, verdict } = yield* calls.judged("PATCH", pathOf(txid), {
        status: "REMOVIDA_PELO_USUARIO_RECEBEDOR"
      })
      if (verdict._tag === "Success") return yield* readRemoval(verdict.answer, what)
      const refused = refusalOf(what, verdict)
      if (verdict._tag === "NotFound") return yield* refused
      // The PSP alters no charge that is not ATIVA: one removed already is what was asked; one paid is refused.
      const found = yield* calls.find(pathOf(txid), readCharge)
      if (Option.isSome(found) && found.value.status === "removed") return
      return yield* refused
    }).pipe(logged)
})
