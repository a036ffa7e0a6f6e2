// Port: the pix service provider (PSP). It registers the charge whose BR Code the payer scans, tells what pix it
// received, returns pix (refunds) and sends its notifications where it is told. Every call ends one of three ways: an
// answer; `PixProviderRefused`, the provider's definite no (asking again gets the same); or `PixProviderUnavailable`,
// no answer (unreachable, too slow, failing, too many requests), which asking again later may mend.
import type { Cents, Company, Document, PixKey, Timestamp } from "@fatura/domain"
import { Context, type Effect, type Option } from "effect"
import type { PixProviderRefused, PixProviderUnavailable } from "../platform/Failures.js"

export interface PixChargeRequest {
  readonly company: Company.Company
  /** The company's key, parsed: a provider that writes the company's own key in the BR Code takes this one. */
  readonly pixKey: PixKey.PixKey
  readonly amount: Cents.Cents
  /** `txidOf` the invoice's secureId: a retry of the same invoice asks for the same charge. */
  readonly txid: string
  readonly expiresAt: Timestamp.Timestamp
  /** Seconds from now to `expiresAt`. */
  readonly expiresIn: number
  readonly payer: { readonly name: string; readonly document: Document.Document }
  /** What the payer's app shows of the charge (at most 140 characters). */
  readonly summary: string
}

/** A pix charge with a due date (`cobv`): the pix side of a hybrid boleto (SPEC 15.1). */
export interface PixDueChargeRequest {
  readonly company: Company.Company
  readonly amount: Cents.Cents
  /** `txidOf` the invoice's secureId, as for an immediate charge: a boleto invoice has no other. */
  readonly txid: string
  /** The boleto's due date (YYYY-MM-DD, São Paulo): payable until that day ends, and not after, as the boleto. */
  readonly dueDate: string
  readonly payer: { readonly name: string; readonly document: Document.Document }
  /** What the payer's app shows of the charge (at most 140 characters). */
  readonly summary: string
}

/** Charges with a due date (`cobv`), which make each boleto hybrid: payable by its barcode or by pix. */
export interface DueCharges {
  /**
   * Registers the charge (once per txid: a repeat with the same request answers the same charge) and hands back
   * its BR Code. `PixProviderRefused` when the provider will not make it (nothing was made).
   */
  readonly charge: (request: PixDueChargeRequest) => Effect.Effect<{ readonly qrCode: string }, PixProviderFailure>
  /**
   * Removes a charge that must no longer be paid (its boleto was paid at the bank); removing one removed already
   * succeeds. `PixProviderRefused` when the provider will not: no such charge, or it was paid meanwhile.
   */
  readonly remove: (txid: string) => Effect.Effect<void, PixProviderFailure>
}

/** A pix the provider received, as it tells it. */
export interface ReceivedPix {
  readonly endToEndId: string
  /** The charge it paid; null for a pix sent to the key without one. */
  readonly txid: string | null
  readonly amount: Cents.Cents
  readonly paidAt: Timestamp.Timestamp
}

/** A charge as the provider keeps it. */
export interface ProviderCharge {
  readonly txid: string
  readonly status: "active" | "completed" | "removed"
  readonly amount: Cents.Cents
  /** The pix that paid it. */
  readonly pix: ReadonlyArray<ReceivedPix>
}

/** Where a return of a received pix (a refund) stands at the provider. */
export type PixReturnState =
  | { readonly _tag: "Processing" }
  | { readonly _tag: "Returned"; readonly at: Timestamp.Timestamp }
  | { readonly _tag: "Refused"; readonly reason: string }

export interface PixReturnRequest {
  /** The pix to return part of. */
  readonly endToEndId: string
  /** Ours (1–35 alphanumerics), recorded before the call: the provider makes one return per id, so it is retried. */
  readonly returnId: string
  readonly amount: Cents.Cents
  readonly reason: string | null
}

/** What a call of the provider may fail with: no answer, or a definite refusal. */
export type PixProviderFailure = PixProviderUnavailable | PixProviderRefused

export class PixProvider extends Context.Service<
  PixProvider,
  {
    /** The txid of an invoice's charge, derived from its secureId. */
    readonly txidOf: (secureId: string) => string
    /**
     * Registers the charge (once per txid: a repeat with the same request answers the same charge) and hands back
     * its BR Code. `PixProviderRefused` when the provider will not make it (nothing was made).
     */
    readonly charge: (request: PixChargeRequest) => Effect.Effect<{ readonly qrCode: string }, PixProviderFailure>
    /** Charges with a due date; null for a provider that makes none (a boleto is then a boleto alone). */
    readonly dueCharges: DueCharges | null
    /**
     * A charge by its txid, immediate or with a due date, with the pix that paid it; none when the provider has no
     * such charge.
     * `PixProviderRefused` when it will not say (which tells nothing of the charge).
     */
    readonly findCharge: (txid: string) => Effect.Effect<Option.Option<ProviderCharge>, PixProviderFailure>
    /** A received pix by its end-to-end id; none when the provider received no such pix. */
    readonly findReceived: (endToEndId: string) => Effect.Effect<Option.Option<ReceivedPix>, PixProviderFailure>
    /** Every pix received from `from` to `to`, all pages of them. */
    readonly listReceived: (
      from: Timestamp.Timestamp,
      to: Timestamp.Timestamp
    ) => Effect.Effect<ReadonlyArray<ReceivedPix>, PixProviderFailure>
    /**
     * Asks for a return; the answer may come later (`findReturn`, or a notification). `PixProviderRefused` when the
     * provider will not make it (past its window, more than is left of the pix…): no return was made under that id.
     */
    readonly requestReturn: (request: PixReturnRequest) => Effect.Effect<PixReturnState, PixProviderFailure>
    /**
     * Where a return asked for stands; none when the provider never received it. `PixProviderRefused` when it will
     * not say (which tells nothing of the return).
     */
    readonly findReturn: (
      endToEndId: string,
      returnId: string
    ) => Effect.Effect<Option.Option<PixReturnState>, PixProviderFailure>
    /** Tells the provider where to send its notifications (it posts to `<url>/pix`); none for a provider that sends none. */
    readonly registerWebhook: (url: string) => Effect.Effect<void, PixProviderFailure>
  }
>()("@fatura/application/PixProvider") {}
