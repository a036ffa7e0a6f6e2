// Maps the application's failures to the contract's errors (SPEC 3): the one place where a refusal
// in domain words becomes a status and a `code`.

import { Forbidden, InvalidRequest, NotFound, Unauthorized, Unavailable, Unprocessable } from "@fatura/api"
import type {
  CompanyBlocked,
  CompanyNotFound,
  InvoiceNotFound,
  MethodNotSupported,
  StorageUnavailable,
  Unauthenticated
} from "@fatura/application"
import type { Invoice } from "@fatura/domain"

type Failure =
  | Unauthenticated
  | CompanyBlocked
  | CompanyNotFound
  | InvoiceNotFound
  | MethodNotSupported
  | StorageUnavailable
  | Invoice.AmountOutOfRange
  | Invoice.TotalMismatch

type ResponseFor<F extends Failure> = F extends Unauthenticated
  ? Unauthorized
  : F extends CompanyBlocked
    ? Forbidden
    : F extends InvoiceNotFound | CompanyNotFound
      ? NotFound
      : F extends MethodNotSupported
        ? InvalidRequest
        : F extends StorageUnavailable
          ? Unavailable
          : Unprocessable

const blockMessage = (block: CompanyBlocked["block"]) =>
  block === "system"
    ? "the company is blocked"
    : block === "processing"
      ? "the company is blocked from creating invoices"
      : `the company is blocked from creating ${block} invoices`

export const toResponse = <F extends Failure>(failure: F): ResponseFor<F> => {
  switch (failure._tag) {
    case "Unauthenticated":
      return new Unauthorized({ message: "a valid secret key is required: Authorization: Bearer sk_…" }) as never
    case "CompanyBlocked":
      return new Forbidden({ message: blockMessage(failure.block) }) as never
    case "InvoiceNotFound":
      return new NotFound({ message: "no invoice with that id" }) as never
    case "CompanyNotFound":
      return new NotFound({ message: "no company with that id" }) as never
    case "MethodNotSupported":
      return new InvalidRequest({
        message: `method: ${failure.method} is not supported yet`,
        issues: [{ path: "method", message: `${failure.method} is not supported yet` }]
      }) as never
    case "StorageUnavailable":
      return new Unavailable({ code: "unavailable", message: "the service is temporarily unavailable" }) as never
    case "AmountOutOfRange":
      return new Unprocessable({ code: "amount_out_of_range", message: failure.message }) as never
    case "TotalMismatch":
      return new Unprocessable({ code: "total_mismatch", message: failure.message }) as never
  }
}
