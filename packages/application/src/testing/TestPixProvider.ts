// A stand-in pix provider, in memory: it builds the BR Code a PSP would hand back from the company's key (the same
// request always gets the same code) and keeps its charges, so that a test can play what a PSP does afterwards —
// a payer paying a charge (of its amount or another), a return the PSP settles, refuses later or refuses when asked, a
// PSP that cannot be reached — and counts the calls it gets. Without a test driving it, no pix arrives and every
// return is settled at once, as in the sandbox. Made `withDueCharges`, it makes charges with a due date too (which
// make boletos hybrid) and removes them when asked.
import { type Cents, PixBrCode, PixKey } from "@fatura/domain"
import { Effect, Layer, Option, Result } from "effect"
import {
  type DueCharges,
  type PixDueChargeRequest,
  PixProvider,
  type PixReturnRequest,
  type PixReturnState,
  type ReceivedPix
} from "../pix/PixProvider.js"
import * as Clock from "../platform/Clock.js"
import { PixProviderRefused, PixProviderUnavailable } from "../platform/Failures.js"

/** What the stand-in PSP keeps, and how it answers: for a test to read and to change. */
export interface Psp {
  readonly charges: Map<
    string,
    {
      readonly amount: Cents.Cents
      readonly pix: Array<ReceivedPix>
      /** A charge with a due date's (YYYY-MM-DD); null for an immediate one. */
      readonly dueDate: string | null
      removed: boolean
    }
  >
  readonly received: Map<string, ReceivedPix>
  readonly returns: Map<string, { readonly request: PixReturnRequest; state: PixReturnState }>
  /**
   * How a return is first answered: settled at once (`Returned`), left `Processing`, `Refused` (made, and not
   * done), or refused when it is asked for (`RefusedWhenAsked`: `PixProviderRefused`, and no return is made).
   */
  returnsAnswer: "Returned" | "Processing" | "Refused" | "RefusedWhenAsked"
  /** Whether it cannot be reached: every call fails. */
  down: boolean
  /** Where it was told to notify. */
  webhookUrl: string | null
  /** Every call it got, in order, as `method argument` (`findReceived E0000…`), reachable or not. */
  readonly calls: Array<string>
}

export const make = (options: { readonly withDueCharges?: boolean } = {}) => {
  const psp: Psp = {
    charges: new Map(),
    received: new Map(),
    returns: new Map(),
    returnsAnswer: "Returned",
    down: false,
    webhookUrl: null,
    calls: []
  }
  let sequence = 0

  /** Counts a call, then fails it when the PSP is down. */
  const reachable = (call: string) =>
    Effect.suspend(() => {
      psp.calls.push(call)
      return psp.down ? Effect.fail(new PixProviderUnavailable({ message: "the test PSP is down" })) : Effect.void
    })

  /** A payer pays the charge (another amount when given), as the PSP records it; the pix it received. */
  const pay = (txid: string, amount?: number) =>
    Effect.gen(function* () {
      const charge = psp.charges.get(txid)
      if (charge === undefined) return yield* Effect.die(new Error(`the test PSP has no charge ${txid}`))
      if (charge.removed)
        return yield* Effect.die(new Error(`the test PSP's charge ${txid} was removed: none can pay it`))
      sequence += 1
      const pix: ReceivedPix = {
        endToEndId: `E00000000${String(sequence).padStart(23, "0")}`,
        txid,
        amount: (amount ?? charge.amount) as Cents.Cents,
        paidAt: yield* Clock.now
      }
      charge.pix.push(pix)
      psp.received.set(pix.endToEndId, pix)
      return pix
    })

  /** Settles a return the PSP was processing. */
  const settleReturn = (returnId: string, state: PixReturnState) =>
    Effect.sync(() => {
      const found = psp.returns.get(returnId)
      if (found === undefined) throw new Error(`the test PSP has no return ${returnId}`)
      found.state = state
    })

  /** Keeps a charge (once per txid) and answers its BR Code. */
  const keep = (
    kind: string,
    { company, amount, txid }: Pick<PixDueChargeRequest, "company" | "amount" | "txid">,
    dueDate: string | null
  ) =>
    Effect.andThen(
      reachable(`${kind} ${txid}`),
      Effect.sync(() => {
        if (!psp.charges.has(txid)) psp.charges.set(txid, { amount, pix: [], dueDate, removed: false })
        return {
          qrCode: PixBrCode.build({
            pixKey: Result.getOrThrow(PixKey.parse(company.pixKey)).key,
            merchantName: company.fantasyName,
            merchantCity: company.address.city,
            amount,
            txid
          })
        }
      })
    )

  const dueCharges: DueCharges = {
    charge: (request) => keep("dueCharge", request, request.dueDate),
    remove: (txid) =>
      Effect.gen(function* () {
        yield* reachable(`removeDueCharge ${txid}`)
        const charge = psp.charges.get(txid)
        if (charge === undefined || charge.pix.length > 0) {
          return yield* new PixProviderRefused({
            message: `the test PSP refused to remove the charge ${txid}`,
            reason: charge === undefined ? "no such charge" : "the charge was paid"
          })
        }
        charge.removed = true
      })
  }

  const provider = PixProvider.of({
    txidOf: PixBrCode.staticTxidOf,
    dueCharges: options.withDueCharges === true ? dueCharges : null,
    charge: (request) => keep("charge", request, null),
    findCharge: (txid) =>
      Effect.andThen(
        reachable(`findCharge ${txid}`),
        Effect.sync(() =>
          Option.map(Option.fromNullishOr(psp.charges.get(txid)), (charge) => ({
            txid,
            status: charge.removed
              ? ("removed" as const)
              : charge.pix.length > 0
                ? ("completed" as const)
                : ("active" as const),
            amount: charge.amount,
            pix: [...charge.pix]
          }))
        )
      ),
    findReceived: (endToEndId) =>
      Effect.andThen(
        reachable(`findReceived ${endToEndId}`),
        Effect.sync(() => Option.fromNullishOr(psp.received.get(endToEndId)))
      ),
    listReceived: (from, to) =>
      Effect.andThen(
        reachable("listReceived"),
        Effect.sync(() => [...psp.received.values()].filter((pix) => pix.paidAt >= from && pix.paidAt <= to))
      ),
    requestReturn: (request) =>
      Effect.gen(function* () {
        yield* reachable(`requestReturn ${request.returnId}`)
        const known = psp.returns.get(request.returnId)
        if (known !== undefined) return known.state
        if (psp.returnsAnswer === "RefusedWhenAsked") {
          return yield* new PixProviderRefused({
            message: `the test PSP refused return ${request.returnId}`,
            reason: "the test PSP refuses returns when they are asked for"
          })
        }
        const at = yield* Clock.now
        const state: PixReturnState =
          psp.returnsAnswer === "Returned"
            ? { _tag: "Returned", at }
            : psp.returnsAnswer === "Refused"
              ? { _tag: "Refused", reason: "the test PSP refuses returns" }
              : { _tag: "Processing" }
        psp.returns.set(request.returnId, { request, state })
        return state
      }),
    findReturn: (_endToEndId, returnId) =>
      Effect.andThen(
        reachable(`findReturn ${returnId}`),
        Effect.sync(() => Option.map(Option.fromNullishOr(psp.returns.get(returnId)), (found) => found.state))
      ),
    registerWebhook: (url) =>
      Effect.andThen(
        reachable("registerWebhook"),
        Effect.sync(() => {
          psp.webhookUrl = url
        })
      )
  })

  return { psp, pay, settleReturn, provider, layer: Layer.succeed(PixProvider, provider) }
}

/** A stand-in of its own for each program that builds it. */
export const layer = Layer.unwrap(Effect.sync(() => make().layer))
