// Port: the pix service provider that registers a charge and hands back the BR Code the payer scans.
import type { Cents, Company, PixKey, Timestamp } from "@fatura/domain"
import { Context, type Effect } from "effect"

export interface PixChargeRequest {
  readonly company: Company.Company
  /** The company's key, parsed: the one to write in the BR Code. */
  readonly pixKey: PixKey.PixKey
  readonly amount: Cents.Cents
  readonly txid: string
  readonly expiresAt: Timestamp.Timestamp
}

export class PixProvider extends Context.Service<
  PixProvider,
  {
    readonly charge: (request: PixChargeRequest) => Effect.Effect<{ readonly qrCode: string }>
  }
>()("@fatura/application/PixProvider") {}
