// A boleto's invoice can be paid more than one way: at any bank by its barcode, by the pix charge with a due date of a
// hybrid boleto (SPEC 15.1), or by the sandbox's helper. Once one way moves it out of `pending`, the others are
// withdrawn, in the same transaction: the boleto at the bank (a registration not sent never goes, one sent is written
// off) and the pix charge at the provider (its removal queued for the sweep). What is paid anyway pays nothing.
import type { Invoice, Timestamp } from "@fatura/domain"
import { Effect } from "effect"
import { PixChargeRemovalRepository } from "../pix/PixChargeRemovalRepository.js"
import { BoletoRegistrationRepository } from "./BoletoRegistrationRepository.js"

/** The way that moved the invoice: its own needs no withdrawing. */
export type Way = "bank" | "pix" | "sandbox"

export const make = Effect.gen(function* () {
  const registrations = yield* BoletoRegistrationRepository
  const removals = yield* PixChargeRemovalRepository

  /** Withdraws the ways of paying `invoice` other than `way`, which just moved it out of `pending`. */
  const withdrawOtherWays = (invoice: Invoice.Invoice, way: Way, at: Timestamp.Timestamp) =>
    Effect.gen(function* () {
      if (invoice.boleto === null) return
      if (way !== "bank") yield* registrations.withdraw(invoice.id, at)
      if (way !== "pix" && invoice.pix !== null) {
        yield* removals.queue({ txid: invoice.pix.txid, invoiceId: invoice.id }, at)
      }
    })

  return { withdrawOtherWays }
})
