// Maps the application's failures to the contract's errors (SPEC 3) by one table, tag to error: the one place where a
// refusal in domain words becomes a status and a `code`, and the type of each answer follows the failure it answers.
import {
  Forbidden,
  IdempotencyConflict,
  InvalidRequest,
  InvalidState,
  NotFound,
  Unauthorized,
  Unavailable,
  Unprocessable
} from "@fatura/api"
import type {
  AcquirerUnavailable,
  BankAccountMissing,
  CompanyBlocked,
  CompanyNotFound,
  DeliveryNotFound,
  EndpointLimitReached,
  EndpointNotFound,
  EndpointUrlRefused,
  EventNotFound,
  InsufficientBalance,
  InvalidCardData,
  InvalidDueDate,
  InvoiceNotFound,
  LeaseLost,
  MoveNotAllowed,
  PayoutUnavailable,
  PixProviderRefused,
  PixProviderUnavailable,
  PostbackTargetRefused,
  SandboxOnly,
  StorageUnavailable,
  Unauthenticated,
  UnknownCursor,
  UnusablePixKey,
  WithdrawalNotFound
} from "@fatura/application"
import type { Card, Invoice, Refund, Withdrawal } from "@fatura/domain"

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
  | EndpointNotFound
  | EndpointLimitReached
  | EndpointUrlRefused
  | UnusablePixKey
  | LeaseLost
  | BankAccountMissing
  | PayoutUnavailable
  | WithdrawalNotFound
  | Withdrawal.InsufficientFunds

/** Each failure, by its tag. */
type FailureByTag = { readonly [F in Failure as F["_tag"]]: F }

/** The contract's error each failure is answered with: the status and `code` a client sees. */
interface Responses {
  readonly Unauthenticated: Unauthorized
  readonly CompanyBlocked: Forbidden
  readonly SandboxOnly: Forbidden
  readonly InvoiceNotFound: NotFound
  readonly CompanyNotFound: NotFound
  readonly DeliveryNotFound: NotFound
  readonly EventNotFound: NotFound
  readonly UnknownCursor: NotFound
  readonly InvalidCardData: InvalidRequest
  readonly InvalidDueDate: InvalidRequest
  readonly StorageUnavailable: Unavailable
  readonly AcquirerUnavailable: Unavailable
  readonly PixProviderUnavailable: Unavailable
  readonly MoveNotAllowed: InvalidState
  readonly PixProviderRefused: Unprocessable
  readonly AmountOutOfRange: Unprocessable
  readonly TotalMismatch: Unprocessable
  readonly InstallmentTooSmall: Unprocessable
  readonly RefundExceedsRemaining: Unprocessable
  readonly InsufficientBalance: Unprocessable
  readonly PostbackTargetRefused: Unprocessable
  readonly EndpointNotFound: NotFound
  readonly EndpointLimitReached: Unprocessable
  readonly EndpointUrlRefused: Unprocessable
  readonly UnusablePixKey: Unprocessable
  readonly LeaseLost: IdempotencyConflict
  readonly BankAccountMissing: Unprocessable
  readonly PayoutUnavailable: Unavailable
  readonly WithdrawalNotFound: NotFound
  readonly InsufficientFunds: Unprocessable
}

const blockMessage = (block: CompanyBlocked["block"]) =>
  block === "system"
    ? "the company is blocked"
    : block === "processing"
      ? "the company is blocked from creating invoices"
      : block === "sake"
        ? "the company is blocked from withdrawing"
        : `the company is blocked from creating ${block} invoices`

const invalidRequest = (path: string, message: string) =>
  new InvalidRequest({ message: `${path}: ${message}`, issues: [{ path, message }] })

/** What a request is told while another holds its `Idempotency-Key`. */
export const stillRunning = () =>
  new IdempotencyConflict({
    code: "idempotency_in_progress",
    message: "a request with this Idempotency-Key is still running"
  })

const table: { readonly [T in keyof Responses]: (failure: FailureByTag[T]) => Responses[T] } = {
  Unauthenticated: (failure) =>
    new Unauthorized({
      message:
        failure.credential === "publicToken"
          ? "a valid public token is required: Authorization: Bearer pk_…"
          : "a valid secret key is required: Authorization: Bearer sk_…"
    }),
  CompanyBlocked: (failure) => new Forbidden({ message: blockMessage(failure.block) }),
  InvoiceNotFound: () => new NotFound({ message: "no invoice with that id" }),
  CompanyNotFound: () => new NotFound({ message: "no company with that id" }),
  InvalidCardData: (failure) => invalidRequest(failure.field, failure.reason),
  InvalidDueDate: (failure) => invalidRequest("due_date", failure.reason),
  StorageUnavailable: () => new Unavailable({ code: "unavailable", message: "the service is temporarily unavailable" }),
  AcquirerUnavailable: (failure) => new Unavailable({ code: "acquirer_unavailable", message: failure.message }),
  // What the provider said stays in the logs: it names hosts and its own terms, none of them the merchant's.
  PixProviderUnavailable: () =>
    new Unavailable({
      code: "provider_unavailable",
      message: "the pix provider cannot be reached: nothing was created; try again with the same Idempotency-Key"
    }),
  // A definite no: the same request would get it again. What the provider said of the request is the
  // merchant's to read (its problem details name fields and rules, never hosts or credentials).
  PixProviderRefused: (failure) =>
    new Unprocessable({
      code: "unprocessable",
      message: `the pix provider refused the charge: ${failure.reason}; nothing was created`
    }),
  AmountOutOfRange: (failure) => new Unprocessable({ code: "amount_out_of_range", message: failure.message }),
  TotalMismatch: (failure) => new Unprocessable({ code: "total_mismatch", message: failure.message }),
  InstallmentTooSmall: (failure) => new Unprocessable({ code: "installment_too_small", message: failure.message }),
  MoveNotAllowed: (failure) => new InvalidState({ message: failure.reason }),
  RefundExceedsRemaining: (failure) =>
    new Unprocessable({ code: "refund_exceeds_remaining", message: failure.message }),
  InsufficientBalance: (failure) => new Unprocessable({ code: "insufficient_balance", message: failure.message }),
  SandboxOnly: () => new Forbidden({ message: "sandbox helpers take test keys only" }),
  EventNotFound: () => new NotFound({ message: "no event with that id" }),
  DeliveryNotFound: () => new NotFound({ message: "no delivery with that id" }),
  PostbackTargetRefused: (failure) =>
    new Unprocessable({ code: "postback_url_not_allowed", message: `postback_url: ${failure.reason}` }),
  EndpointNotFound: () => new NotFound({ message: "no webhook endpoint with that id" }),
  EndpointLimitReached: (failure) =>
    new Unprocessable({
      code: "unprocessable",
      message: `a company has at most ${failure.atMost} webhook endpoints in each mode: delete one first`
    }),
  EndpointUrlRefused: (failure) =>
    new Unprocessable({ code: "postback_url_not_allowed", message: `url: ${failure.reason}` }),
  // The request is fine; the company's own setting is not, and only replacing its key helps.
  UnusablePixKey: (failure) =>
    new Unprocessable({
      code: "unprocessable",
      message: `the company's pix key cannot receive pix (${failure.reason}): pix invoices are refused until it is replaced with a valid key`
    }),
  // Like any id of another company's object (SPEC 2): exactly what an unknown one gets.
  UnknownCursor: () => new NotFound({ message: "starting_after: nothing of yours has that id" }),
  // A run whose lease a repeat took over stops at its next checkpoint: the repeat is now the request in progress.
  LeaseLost: stillRunning,
  BankAccountMissing: (failure) => new Unprocessable({ code: "bank_account_missing", message: failure.message }),
  PayoutUnavailable: (failure) =>
    new Unavailable({ code: "payout_unavailable", message: `${failure.reason}: nothing was recorded` }),
  WithdrawalNotFound: () => new NotFound({ message: "no withdrawal with that id" }),
  InsufficientFunds: (failure) => new Unprocessable({ code: "insufficient_balance", message: failure.message })
}

/** The contract's error for `failure`, by the table: its type follows the failure's tag. */
export const toResponse = <T extends keyof Responses>(
  failure: FailureByTag[T] & { readonly _tag: T }
): Responses[T] => {
  const respond: (failure: FailureByTag[T]) => Responses[T] = table[failure._tag]
  return respond(failure)
}
