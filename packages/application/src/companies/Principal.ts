// Who is calling: the company behind a secret key, and the key's mode.
import type { Company, Invoice } from "@fatura/domain"

/**
 * A secret key that was valid, of a company not blocked from the system, when it was last looked up (at most
 * `KeyCacheTtl` ago). The company itself is read afresh by each use case that needs it: a block or 3-D Secure
 * activation applies from the next request.
 */
export interface Principal {
  readonly keyId: number
  readonly mode: Invoice.Mode
  readonly companyId: Company.CompanyId
}

/** Who is calling with a public token: a company's checkout, in one mode. */
export interface PublicPrincipal {
  readonly mode: Invoice.Mode
  readonly company: Company.Company
}
