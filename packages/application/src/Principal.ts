// Who is calling: the company behind a secret key, and the key's mode.
import type { Company, Invoice } from "@fatura/domain"

export interface Principal {
  readonly keyId: number
  readonly mode: Invoice.Mode
  readonly company: Company.Company
}

/** Who is calling with a public token: a company's checkout, in one mode. */
export interface PublicPrincipal {
  readonly mode: Invoice.Mode
  readonly company: Company.Company
}
