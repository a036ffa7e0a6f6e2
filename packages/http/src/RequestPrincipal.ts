// Who a request acts as, decided once by the edge after routing (SPEC 2, 4.7) and handed on to the handlers that act
// for a company. The payer's side acts for whoever holds an invoice's checkout token, which its use cases check.
import type { PublicPrincipal, Principal as SecretKeyPrincipal } from "@fatura/application"
import { Context } from "effect"

export type Principal =
  /** A company in one mode, by its secret key. */
  | { readonly _tag: "SecretKey"; readonly caller: SecretKeyPrincipal }
  /** A company's checkout in one mode, by its public token: what a payer's browser acts for. */
  | { readonly _tag: "PublicToken"; readonly caller: PublicPrincipal }
  | { readonly _tag: "Anonymous" }

export const Current = Context.Reference<Principal>("@fatura/http/RequestPrincipal", {
  defaultValue: () => ({ _tag: "Anonymous" })
})
