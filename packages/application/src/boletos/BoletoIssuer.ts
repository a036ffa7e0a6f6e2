// Port: the bank that registers a bank slip and gives back its barcode and digitable line.
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
}

export class BoletoIssuer extends Context.Service<
  BoletoIssuer,
  { readonly issue: (request: BoletoRequest) => Effect.Effect<IssuedBoleto> }
>()("@fatura/application/BoletoIssuer") {}
