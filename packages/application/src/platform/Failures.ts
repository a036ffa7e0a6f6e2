// The ways a use case can refuse, in the application's words; the HTTP adapter maps each to the contract.

import { Company } from "@fatura/domain"
import { Schema } from "effect"

/** No usable credential of the kind the route takes (`credential`): missing, malformed, unknown or revoked. */
export class Unauthenticated extends Schema.TaggedError<Unauthenticated>()("Unauthenticated", {
  credential: Schema.Literals(["secretKey", "publicToken"]),
  reason: Schema.String
}) {}

/** The company is blocked for what it asked (SPEC 7.5). */
export class CompanyBlocked extends Schema.TaggedError<CompanyBlocked>()("CompanyBlocked", {
  block: Company.BlockKind
}) {}

/** No invoice of this company has that id; another company's invoice is just as unknown. */
export class InvoiceNotFound extends Schema.TaggedError<InvoiceNotFound>()("InvoiceNotFound", {
  reference: Schema.String
}) {}

/** No company has that id (CLI). */
export class CompanyNotFound extends Schema.TaggedError<CompanyNotFound>()("CompanyNotFound", {
  companyId: Schema.Number
}) {}

/** No secret key that is not revoked has that prefix (CLI). */
export class KeyNotFound extends Schema.TaggedError<KeyNotFound>()("KeyNotFound", {
  prefix: Schema.String
}) {}

/** More than one secret key that is not revoked has that prefix (CLI): revoking them all would be a guess. */
export class AmbiguousKeyPrefix extends Schema.TaggedError<AmbiguousKeyPrefix>()("AmbiguousKeyPrefix", {
  prefix: Schema.String,
  count: Schema.Number
}) {}

/** The database cannot be reached; the request may be retried later. */
export class StorageUnavailable extends Schema.TaggedError<StorageUnavailable>()("StorageUnavailable", {
  message: Schema.String
}) {}

/** Card data the contract's format checks cannot judge alone (an expiry in the past, an unknown brand). */
export class InvalidCardData extends Schema.TaggedError<InvalidCardData>()("InvalidCardData", {
  field: Schema.String,
  reason: Schema.String
}) {}

/** A boleto due date outside today … today + 365 (São Paulo). */
export class InvalidDueDate extends Schema.TaggedError<InvalidDueDate>()("InvalidDueDate", {
  dueDate: Schema.String,
  reason: Schema.String
}) {}

/** Live card payments need a live acquirer, and none is configured. */
export class AcquirerUnavailable extends Schema.TaggedError<AcquirerUnavailable>()("AcquirerUnavailable", {
  message: Schema.String
}) {}

/** The pix provider could not be asked (unreachable, timed out) or failed (5xx, an answer it should not give). */
export class PixProviderUnavailable extends Schema.TaggedError<PixProviderUnavailable>()("PixProviderUnavailable", {
  message: Schema.String
}) {}

/**
 * The pix provider took the request and said no (in the API Pix, a 4xx with problem details): asking again with the
 * same request gets the same answer. `reason` is what the provider said, in its words; `message` adds which call it
 * refused, for the logs.
 */
export class PixProviderRefused extends Schema.TaggedError<PixProviderRefused>()("PixProviderRefused", {
  message: Schema.String,
  reason: Schema.String
}) {}

/** A refund the company's balance for that method cannot cover (SPEC 7.4). */
export class InsufficientBalance extends Schema.TaggedError<InsufficientBalance>()("InsufficientBalance", {
  balance: Schema.Number,
  required: Schema.Number
}) {
  override get message() {
    return `the balance (${this.balance}) does not cover a refund of ${this.required}`
  }
}

/** Sandbox helpers move test money only. */
export class SandboxOnly extends Schema.TaggedError<SandboxOnly>()("SandboxOnly", {}) {}

/** A list cursor that names no invoice of the caller's. */
export class UnknownCursor extends Schema.TaggedError<UnknownCursor>()("UnknownCursor", {
  cursor: Schema.String
}) {}

/** No event of this company, in the caller's mode, has that id. */
export class EventNotFound extends Schema.TaggedError<EventNotFound>()("EventNotFound", {
  eventId: Schema.String
}) {}

/** No delivery of this company has that id. */
export class DeliveryNotFound extends Schema.TaggedError<DeliveryNotFound>()("DeliveryNotFound", {
  deliveryId: Schema.Number
}) {}

/** No webhook endpoint of this company, in the caller's mode, has that id; a deleted one is as unknown. */
export class EndpointNotFound extends Schema.TaggedError<EndpointNotFound>()("EndpointNotFound", {
  endpointId: Schema.String
}) {}

/** The company already has as many webhook endpoints in the caller's mode as it may (SPEC 13.5). */
export class EndpointLimitReached extends Schema.TaggedError<EndpointLimitReached>()("EndpointLimitReached", {
  atMost: Schema.Number
}) {}

/** A webhook endpoint's URL may not take postbacks (SPEC 8.4), for `reason`. */
export class EndpointUrlRefused extends Schema.TaggedError<EndpointUrlRefused>()("EndpointUrlRefused", {
  reason: Schema.String
}) {}

/** A move the invoice's method or status does not allow (SPEC 7.1: 409 invalid_state). */
export class MoveNotAllowed extends Schema.TaggedError<MoveNotAllowed>()("MoveNotAllowed", {
  reason: Schema.String
}) {}

/** No pix key was given and the company's email, its default, cannot be one (SPEC 12.2). */
export class PixKeyRequired extends Schema.TaggedError<PixKeyRequired>()("PixKeyRequired", {
  email: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `the email ${this.email} cannot be the company's pix key (${this.reason}): a pix key must be given`
  }
}

/**
 * The company's stored pix key is no valid key: kept from before keys were checked, it cannot be written in a
 * BR Code, so the company cannot take pix until the key is replaced.
 */
export class UnusablePixKey extends Schema.TaggedError<UnusablePixKey>()("UnusablePixKey", {
  reason: Schema.String
}) {}

/** The company has no bank account on file to withdraw to (SPEC 13.3); only the CLI sets one. */
export class BankAccountMissing extends Schema.TaggedError<BankAccountMissing>()("BankAccountMissing", {}) {
  override get message() {
    return "the company has no bank account to withdraw to: it is set with `fatura company bank-account`"
  }
}

/** No payout rail pays withdrawals of the caller's mode (SPEC 13.3), or the rail did not answer. */
export class PayoutUnavailable extends Schema.TaggedError<PayoutUnavailable>()("PayoutUnavailable", {
  reason: Schema.String
}) {}

/** No withdrawal of this company, in the caller's mode, has that id. */
export class WithdrawalNotFound extends Schema.TaggedError<WithdrawalNotFound>()("WithdrawalNotFound", {
  withdrawalId: Schema.String
}) {}
