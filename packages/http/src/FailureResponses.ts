// Maps the application's failures to the contract's errors (SPEC 3): the one place where a refusal
// in domain words becomes a status and a `code`.
import {
  Forbidden,
  InvalidRequest,
  InvalidState,
  NotFound,
  Unauthorized,
  Unavailable,
  Unprocessable
} from "@fatura/api"
import type {
  AcquirerUnavailable,
  CompanyBlocked,
  CompanyNotFound,
  DeliveryNotFound,
  EventNotFound,
  InsufficientBalance,
  InvalidCardData,
  InvalidDueDate,
  InvoiceNotFound,
  MoveNotAllowed,
  PixProviderRefused,
  PixProviderUnavailable,
  PostbackTargetRefused,
  SandboxOnly,
  StorageUnavailable,
  Unauthenticated,
  UnknownCursor,
  UnusablePixKey
} from "@fatura/application"
import type { Card, Invoice, Refund } from "@fatura/domain"

type Failure =
  | Unauthenticated
  | CompanyBlocked
  | CompanyNotFound
  | InvoiceNotFound
  | InvalidCardData
  | InvalidDueDate
  | AcquirerUnavailable
  | PixProviderUnavailable
  | PixProviderRefused
  | StorageUnavailable
  | Invoice.AmountOutOfRange
  | Invoice.TotalMismatch
  | Card.InstallmentTooSmall
  | MoveNotAllowed
  | Refund.RefundExceedsRemaining
  | InsufficientBalance
  | SandboxOnly
  | UnknownCursor
  | DeliveryNotFound
  | EventNotFound
  | PostbackTargetRefused
  | UnusablePixKey

type ResponseFor<F extends Failure> = F extends Unauthenticated
  ? Unauthorized
  : F extends CompanyBlocked | SandboxOnly
    ? Forbidden
    : F extends InvoiceNotFound | CompanyNotFound | DeliveryNotFound | EventNotFound | UnknownCursor
      ? NotFound
      : F extends InvalidCardData | InvalidDueDate
        ? InvalidRequest
        : F extends StorageUnavailable | AcquirerUnavailable | PixProviderUnavailable
          ? Unavailable
          : F extends MoveNotAllowed
            ? InvalidState
            : Unprocessable

const blockMessage = (block: CompanyBlocked["block"]) =>
  block === "system"
    ? "the company is blocked"
    : block === "processing"
      ? "the company is blocked from creating invoices"
      : `the company is blocked from creating ${block} invoices`

const invalidRequest = (path: string, message: string) =>
  new InvalidRequest({ message: `${path}: ${message}`, issues: [{ path, message }] })

export const toResponse = <F extends Failure>(failure: F): ResponseFor<F> => {
  switch (failure._tag) {
    case "Unauthenticated":
      return new Unauthorized({
        message:
          failure.credential === "publicToken"
            ? "a valid public token is required: Authorization: Bearer pk_…"
            : "a valid secret key is required: Authorization: Bearer sk_…"
      }) as never
    case "CompanyBlocked":
      return new Forbidden({ message: blockMessage(failure.block) }) as never
    case "InvoiceNotFound":
      return new NotFound({ message: "no invoice with that id" }) as never
    case "CompanyNotFound":
      return new NotFound({ message: "no company with that id" }) as never
    case "InvalidCardData":
      return invalidRequest(failure.field, failure.reason) as never
    case "InvalidDueDate":
      return invalidRequest("due_date", failure.reason) as never
    case "StorageUnavailable":
      return new Unavailable({ code: "unavailable", message: "the service is temporarily unavailable" }) as never
    case "AcquirerUnavailable":
      return new Unavailable({ code: "acquirer_unavailable", message: failure.message }) as never
    case "PixProviderUnavailable":
      // What the provider said stays in the logs: it names hosts and its own terms, none of them the merchant's.
      return new Unavailable({
        code: "provider_unavailable",
        message: "the pix provider cannot be reached: nothing was created; try again with the same Idempotency-Key"
      }) as never
    case "PixProviderRefused":
      // A definite no: the same request would get it again. What the provider said of the request is the
      // merchant's to read (its problem details name fields and rules, never hosts or credentials).
      return new Unprocessable({
        code: "unprocessable",
        message: `the pix provider refused the charge: ${failure.reason}; nothing was created`
      }) as never
    case "AmountOutOfRange":
      return new Unprocessable({ code: "amount_out_of_range", message: failure.message }) as never
    case "TotalMismatch":
      return new Unprocessable({ code: "total_mismatch", message: failure.message }) as never
    case "InstallmentTooSmall":
      return new Unprocessable({ code: "installment_too_small", message: failure.message }) as never
    case "MoveNotAllowed":
      return new InvalidState({ message: failure.reason }) as never
    case "RefundExceedsRemaining":
      return new Unprocessable({ code: "refund_exceeds_remaining", message: failure.message }) as never
    case "InsufficientBalance":
      return new Unprocessable({ code: "insufficient_balance", message: failure.message }) as never
    case "SandboxOnly":
      return new Forbidden({ message: "sandbox helpers take test keys only" }) as never
    case "EventNotFound":
      return new NotFound({ message: "no event with that id" }) as never
    case "DeliveryNotFound":
      return new NotFound({ message: "no delivery with that id" }) as never
    case "PostbackTargetRefused":
      return new Unprocessable({
        code: "postback_url_not_allowed",
        message: `postback_url: ${failure.reason}`
      }) as never
    case "UnusablePixKey":
      // The request is fine; the company's own setting is not, and only replacing its key helps.
      return new Unprocessable({
        code: "unprocessable",
        message: `the company's pix key cannot receive pix (${failure.reason}): pix invoices are refused until it is replaced with a valid key`
      }) as never
    case "UnknownCursor":
      // Like any id of another company's object (SPEC 2): exactly what an unknown one gets.
      return new NotFound({ message: "starting_after: nothing of yours has that id" }) as never
  }
}
