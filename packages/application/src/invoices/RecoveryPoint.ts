// How far a create or a payment run under an Idempotency-Key got, as its run records it: the secureId of a pix invoice
// whose charge it was about to ask for (a retry asks for the same charge), the card charge it recorded, or its invoice.
import { Invoice } from "@fatura/domain"
import { Effect, Schema } from "effect"
import { checkpoint as checkpointRun } from "../platform/IdempotencyStore.js"

export const RecoveryPoint = Schema.Union([
  Schema.Struct({ pixInvoice: Invoice.SecureId }),
  Schema.Struct({ cardCharge: Schema.String }),
  Schema.Struct({ invoice: Invoice.InvoiceId })
])
export type RecoveryPoint = typeof RecoveryPoint.Type

const decode = Schema.decodeUnknownEffect(Schema.fromJsonString(RecoveryPoint))

/** The point a run recorded; one that is not a point is a bug, never a reason to run the request anew. */
export const read = (recorded: string): Effect.Effect<RecoveryPoint> => Effect.orDie(decode(recorded))

/** Records where a run under an Idempotency-Key got to, in the transaction that got it there. */
export const checkpoint = (point: RecoveryPoint) => checkpointRun(point)
