// Port: the bank that issues a bank slip — its barcode and digitable line — and, for a bank that registers slips from
// its files, says that the slip waits for its registration.
import type { Cents, Company } from "@fatura/domain"
import { Context, type Effect } from "effect"

export interface BoletoRequest {
  readonly company: Company.Company
  readonly amount: Cents.Cents
  readonly dueDate: string
  readonly ourNumber: string
}

export interface IssuedBoleto {
  readonly bankCode: string
  readonly barcode: string
  readonly digitableLine: string
  /**
   * `pending` when the bank knows the slip only once a remessa registers it (the registration is then queued with
   * the invoice); `registered` when it is payable at once.
   */
  readonly registration: "pending" | "registered"
}

export class BoletoIssuer extends Context.Service<
  BoletoIssuer,
  { readonly issue: (request: BoletoRequest) => Effect.Effect<IssuedBoleto> }
>()("@fatura/application/BoletoIssuer") {}
