// What an earlier run of a create or a card payment, under the same Idempotency-Key, came to before it died or gave
// up: its invoice, once its charge is settled (asking the acquirer, never charging again), and whether that charge
// came too late to pay it. Null when nothing came of it (its charge did not happen): the request runs anew.
import { Effect, Option } from "effect"
import { CardCharges } from "../cards/CardCharges.js"
import * as Clock from "../platform/Clock.js"
import type { AcquirerUnavailable, StorageUnavailable } from "../platform/Failures.js"
import type { InvoiceView } from "./InvoiceInput.js"
import { InvoiceRepository } from "./InvoiceRepository.js"
import type { RecoveryPoint } from "./RecoveryPoint.js"

export interface Resumed {
  readonly view: InvoiceView
  readonly late: boolean
}

export const make = Effect.gen(function* () {
  const invoices = yield* InvoiceRepository
  const cardCharges = yield* CardCharges

  return Effect.fnUntraced(function* (
    point: RecoveryPoint
  ): Effect.fn.Return<Resumed | null, AcquirerUnavailable | StorageUnavailable> {
    if ("pixInvoice" in point) return null
    if ("invoice" in point) {
      const found = yield* invoices.findById(point.invoice)
      if (Option.isNone(found)) return null
      const view = yield* invoices.findWithCompany(
        found.value.companyId,
        found.value.mode,
        { _tag: "Id", id: point.invoice },
        yield* Clock.now
      )
      return Option.isNone(view) ? null : { view: view.value, late: false }
    }
    const settled = yield* cardCharges.resume(point.cardCharge)
    if (Option.isNone(settled) || settled.value.state === "void" || settled.value.view === null) return null
    return { view: settled.value.view, late: settled.value.state === "late" }
  })
})
