// The InvoiceRepository port in memory: invoices with their clients, card references, timelines, ledger entries,
// refunds and events, and the outbox of deliveries that an event with a postback URL queues.
import { type Company, type Invoice, InvoiceStatus, type Timestamp } from "@fatura/domain"
import { Effect, Layer, Option } from "effect"
import {
  type CardCharge,
  type InvoiceReference,
  InvoiceRepository,
  type NewMovement,
  type PendingRefund
} from "../invoices/InvoiceRepository.js"
import { companyLock } from "./InMemoryCompanyRepository.js"
import { InMemoryDatabase, violated } from "./InMemoryDatabase.js"
import {
  asJson,
  type CardChargeRow,
  type InvoiceRow,
  put,
  type RefundRow,
  type Tables,
  toClient,
  toCompany,
  toInvoice,
  totalsOf
} from "./InMemoryTables.js"

const invoiceLock = (id: Invoice.InvoiceId) => `invoices ${id}`

/** Every refund asked of a provider, with its invoice's owner and pix. */
const pendingRefunds = (tables: Tables): Array<PendingRefund> =>
  [...tables.invoices.values()].flatMap((row) =>
    row.refunds.flatMap((refund) =>
      refund.returnId === null || row.pix?.endToEndId == null
        ? []
        : [
            {
              id: refund.id,
              invoiceId: row.id,
              companyId: row.companyId,
              mode: row.mode,
              amount: refund.amount,
              returnId: refund.returnId,
              endToEndId: row.pix.endToEndId,
              status: refund.status,
              createdAt: refund.createdAt
            }
          ]
    )
  )

const toCardCharge = ({ settledAt: _, reversedAt: __, ...charge }: CardChargeRow): CardCharge => charge

const oldestFirst = (a: Timestamp.Timestamp, b: Timestamp.Timestamp) => (a < b ? -1 : a > b ? 1 : 0)

const matches = (row: InvoiceRow, companyId: Company.CompanyId, mode: Invoice.Mode, reference: InvoiceReference) =>
  row.companyId === companyId &&
  row.mode === mode &&
  (reference._tag === "Id" ? row.id === reference.id : row.secureId === reference.secureId)

const findRow = (tables: Tables, companyId: Company.CompanyId, mode: Invoice.Mode, reference: InvoiceReference) =>
  reference._tag === "Id"
    ? Option.filter(Option.fromNullishOr(tables.invoices.get(reference.id)), (row) =>
        matches(row, companyId, mode, reference)
      )
    : Option.fromNullishOr([...tables.invoices.values()].find((row) => matches(row, companyId, mode, reference)))

/** The order of a list: newest first by creation time, then by id (timestamps of one format sort as strings). */
const newestFirst = (a: InvoiceRow, b: InvoiceRow) =>
  a.createdAt === b.createdAt ? b.id - a.id : a.createdAt < b.createdAt ? 1 : -1

/** The checks of the invoices table that a use case could break. */
const checkInvoice = (row: Pick<InvoiceRow, "amount" | "installments" | "refundedAmount">) => {
  if (!(row.amount > 0)) return violated("invoices_amount_check", `amount ${row.amount} is not positive`)
  if (!(row.installments >= 1 && row.installments <= 12)) {
    return violated("invoices_installments_check", `installments ${row.installments} are not 1 to 12`)
  }
  if (!(row.refundedAmount >= 0 && row.refundedAmount <= row.amount)) {
    return violated("invoices_check", `refunded ${row.refundedAmount} of ${row.amount}`)
  }
  return Effect.void
}

export const layer = Layer.effect(
  InvoiceRepository,
  Effect.gen(function* () {
    const database = yield* InMemoryDatabase

    const findById = (id: Invoice.InvoiceId) =>
      database.read((tables) =>
        Option.map(Option.fromNullishOr(tables.invoices.get(id)), (row) => toInvoice(tables, row))
      )

    /** Ledger entries with their ids, as of `at`. */
    const ledgerEntries = (movements: ReadonlyArray<NewMovement>, at: Timestamp.Timestamp) =>
      Effect.forEach(movements, (movement) =>
        movement.amount < 0
          ? violated("ledger_entries_amount_check", `a ledger entry of ${movement.amount}`)
          : Effect.map(
              database.nextval("ledgerEntries"),
              (id): Invoice.Movement => ({ ...movement, id, createdAt: at })
            )
      )

    /** Changes a locked invoice's row and returns the invoice as it now is. */
    const update = (invoice: Invoice.Invoice, change: (row: InvoiceRow) => Effect.Effect<InvoiceRow>) =>
      database.statement(
        Effect.gen(function* () {
          yield* database.lock(invoiceLock(invoice.id))
          const row = (yield* database.read((tables) => tables.invoices.get(invoice.id)))!
          const changed = yield* change(row)
          yield* checkInvoice(changed)
          yield* database.write(put("invoices", invoice.id, changed))
          return Option.getOrThrow(yield* findById(invoice.id))
        })
      )

    return InvoiceRepository.of({
      upsertClient: (contact) =>
        database.statement(
          Effect.gen(function* () {
            // Like the unique key: a second writer of the same client waits for the first to end, then updates.
            yield* database.lock(`clients ${contact.companyId} ${contact.mode} ${contact.document.number}`)
            const existing = yield* database.read((tables) =>
              [...tables.clients.values()].find(
                (client) =>
                  client.companyId === contact.companyId &&
                  client.mode === contact.mode &&
                  client.document.number === contact.document.number
              )
            )
            if (
              existing === undefined &&
              !(yield* database.read((tables) => tables.companies.has(contact.companyId)))
            ) {
              return yield* violated("clients_company_id_fkey", "no company has that id")
            }
            const row =
              existing === undefined
                ? {
                    id: (yield* database.nextval("clients")) as Invoice.ClientId,
                    companyId: contact.companyId,
                    mode: contact.mode,
                    document: { type: contact.document.type, number: contact.document.number },
                    name: contact.name,
                    email: contact.email,
                    phone: contact.phone,
                    createdAt: contact.now,
                    updatedAt: contact.now
                  }
                : {
                    ...existing,
                    name: contact.name,
                    email: contact.email,
                    phone: contact.phone ?? existing.phone,
                    updatedAt: contact.now
                  }
            yield* database.write(put("clients", row.id, row))
            return toClient(row)
          })
        ),

      associateCard: (card) =>
        database.statement(
          Effect.gen(function* () {
            if (!/^[0-9]{6}$/.test(card.firstDigits) || !/^[0-9]{4}$/.test(card.lastDigits)) {
              return yield* violated("card_references_check", "first digits are 6 digits, last digits 4")
            }
            const identity = [
              card.clientId,
              card.brand,
              card.firstDigits,
              card.lastDigits,
              card.expirationMonth,
              card.expirationYear
            ].join(" ")
            yield* database.lock(`card_references ${identity}`)
            const existing = yield* database.read((tables) =>
              [...tables.cardReferences.values()].find(
                (reference) =>
                  reference.clientId === card.clientId &&
                  reference.brand === card.brand &&
                  reference.firstDigits === card.firstDigits &&
                  reference.lastDigits === card.lastDigits &&
                  reference.expirationMonth === card.expirationMonth &&
                  reference.expirationYear === card.expirationYear
              )
            )
            const row = existing ?? {
              id: yield* database.nextval("cardReferences"),
              companyId: card.companyId,
              clientId: card.clientId,
              brand: card.brand,
              firstDigits: card.firstDigits,
              lastDigits: card.lastDigits,
              expirationMonth: card.expirationMonth,
              expirationYear: card.expirationYear,
              createdAt: card.now
            }
            if (existing === undefined) yield* database.write(put("cardReferences", row.id, row))
            return {
              id: row.id,
              brand: row.brand,
              lastDigits: row.lastDigits,
              clientId: row.clientId,
              createdAt: row.createdAt
            } satisfies Invoice.CardAssociate
          })
        ),

      nextOurNumber: Effect.map(database.nextval("ourNumbers"), (n) => String(n).padStart(11, "0")),

      insert: (invoice, client, cardAssociate, timeline, movements) =>
        database.statement(
          Effect.gen(function* () {
            yield* checkInvoice(invoice)
            const clash = yield* database.read((tables) => {
              if (!tables.companies.has(invoice.companyId)) return "invoices_company_id_fkey"
              if (!tables.clients.has(client.id)) return "invoices_client_id_fkey"
              if (cardAssociate !== null && !tables.cardReferences.has(cardAssociate.id)) {
                return "invoices_card_reference_id_fkey"
              }
              for (const row of tables.invoices.values()) {
                if (row.secureId === invoice.secureId) return "invoices_secure_id_key"
                if (invoice.pix !== null && row.pix?.txid === invoice.pix.txid) return "invoices_pix_txid_key"
                if (invoice.boleto !== null && row.boleto?.ourNumber === invoice.boleto.ourNumber) {
                  return "invoices_boleto_our_number_key"
                }
              }
              return undefined
            })
            if (clash !== undefined) return yield* violated(clash, "the invoice breaks a key of the invoices table")
            const id = (yield* database.nextval("invoices")) as Invoice.InvoiceId
            const stored = yield* ledgerEntries(movements, invoice.createdAt)
            const entries = timeline.map((entry) => ({ ...entry, createdAt: invoice.createdAt }))
            const row: InvoiceRow = {
              ...invoice,
              id,
              metadata: invoice.metadata === null ? null : asJson(invoice.metadata),
              items: asJson(invoice.items),
              payer: asJson(invoice.payer),
              fee: asJson(invoice.fee),
              card: invoice.card === null ? null : asJson(invoice.card),
              clientId: client.id,
              cardReferenceId: cardAssociate?.id ?? null,
              timeline: entries,
              movements: stored,
              refunds: []
            }
            yield* database.write(put("invoices", id, row))
            // As the SQL adapter: the invoice as given, with what the database added.
            return {
              ...invoice,
              id,
              client,
              cardAssociate,
              timeline: entries,
              movements: stored,
              refunds: []
            } satisfies Invoice.Invoice
          })
        ),

      find: (companyId, mode, reference) =>
        database.read((tables) =>
          Option.map(findRow(tables, companyId, mode, reference), (row) => toInvoice(tables, row))
        ),

      findWithCompany: (companyId, mode, reference, now) =>
        database.read((tables) =>
          Option.map(findRow(tables, companyId, mode, reference), (row) => ({
            invoice: toInvoice(tables, row),
            company: toCompany(tables.companies.get(row.companyId)!),
            totals: totalsOf(tables, row.companyId, row.mode, now)
          }))
        ),

      lock: (companyId, mode, reference) =>
        database.statement(
          Effect.gen(function* () {
            const found = yield* database.read((tables) => findRow(tables, companyId, mode, reference))
            if (Option.isNone(found)) return Option.none()
            yield* database.lock(invoiceLock(found.value.id))
            return yield* findById(found.value.id)
          })
        ),

      recordCardCharge: (charge) =>
        database.statement(
          Effect.gen(function* () {
            const clash = yield* database.read((tables) =>
              tables.cardCharges.has(charge.reference)
                ? "card_charges_pkey"
                : [...tables.cardCharges.values()].some(
                      (other) =>
                        charge.invoiceId !== null && other.invoiceId === charge.invoiceId && other.state === "requested"
                    )
                  ? "card_charges_in_flight"
                  : undefined
            )
            if (clash !== undefined) return yield* violated(clash, "the charge cannot be recorded")
            yield* database.write(
              put("cardCharges", charge.reference, {
                ...asJson(charge),
                state: "requested",
                settledAt: null,
                reversal: null,
                reversedAt: null
              })
            )
          })
        ),

      chargeInFlight: (invoiceId) =>
        database.read((tables) =>
          Option.map(
            Option.fromNullishOr(
              [...tables.cardCharges.values()].find(
                (charge) => charge.invoiceId === invoiceId && charge.state === "requested"
              )
            ),
            toCardCharge
          )
        ),

      findCardCharge: (reference) =>
        database.read((tables) => Option.map(Option.fromNullishOr(tables.cardCharges.get(reference)), toCardCharge)),

      lockCardCharge: (reference) =>
        database.statement(
          Effect.gen(function* () {
            yield* database.lock(`card_charges ${reference}`)
            return yield* database.read((tables) =>
              Option.map(Option.fromNullishOr(tables.cardCharges.get(reference)), toCardCharge)
            )
          })
        ),

      closeCardCharge: (reference, state, invoiceId, at) =>
        database.statement(
          Effect.gen(function* () {
            yield* database.lock(`card_charges ${reference}`)
            const row = (yield* database.read((tables) => tables.cardCharges.get(reference)))!
            yield* database.write(
              put("cardCharges", reference, {
                ...row,
                state,
                invoiceId: invoiceId ?? row.invoiceId,
                draft: null,
                settledAt: at
              })
            )
          })
        ),

      closeLateCardCharge: (reference, approved, at) =>
        database.statement(
          Effect.gen(function* () {
            yield* database.lock(`card_charges ${reference}`)
            const row = (yield* database.read((tables) => tables.cardCharges.get(reference)))!
            yield* database.write(
              put("cardCharges", reference, {
                ...row,
                state: "late",
                draft: null,
                settledAt: at,
                reversal: approved ? "requested" : null
              })
            )
          })
        ),

      closeCardChargeReversal: (reference, reversal, at) =>
        database.statement(
          Effect.gen(function* () {
            yield* database.lock(`card_charges ${reference}`)
            const row = yield* database.read((tables) => tables.cardCharges.get(reference))
            if (row?.reversal !== "requested") return
            yield* database.write(put("cardCharges", reference, { ...row, reversal, reversedAt: at }))
          })
        ),

      staleCardChargeReversals: (closedBefore, limit) =>
        database.read((tables) =>
          [...tables.cardCharges.values()]
            .filter(
              (charge) =>
                charge.reversal === "requested" && charge.settledAt !== null && charge.settledAt < closedBefore
            )
            // Filtered above: every one was closed.
            .sort((a, b) => oldestFirst(a.settledAt!, b.settledAt!))
            .slice(0, limit)
            .map(toCardCharge)
        ),

      staleCardCharges: (requestedBefore, limit) =>
        database.read((tables) =>
          [...tables.cardCharges.values()]
            .filter((charge) => charge.state === "requested" && charge.requestedAt < requestedBefore)
            .sort((a, b) => oldestFirst(a.requestedAt, b.requestedAt))
            .slice(0, limit)
            .map(toCardCharge)
        ),

      lockCompanyLedger: (companyId) =>
        database.statement(
          Effect.gen(function* () {
            yield* database.lock(companyLock(companyId))
            return yield* database.read((tables) =>
              Option.map(Option.fromNullishOr(tables.companies.get(companyId)), toCompany)
            )
          })
        ),

      applyTransition: (invoice, transition) =>
        update(invoice, (row) =>
          Effect.gen(function* () {
            if (transition.refund !== null && !(transition.refund.amount > 0)) {
              return yield* violated("refunds_amount_check", `a refund of ${transition.refund.amount}`)
            }
            const movements = yield* ledgerEntries(transition.movements, transition.at)
            const refunds: ReadonlyArray<RefundRow> =
              transition.refund === null
                ? []
                : [
                    {
                      id: yield* database.nextval("refunds"),
                      amount: transition.refund.amount,
                      reason: transition.refund.reason,
                      status: "succeeded",
                      failureReason: null,
                      createdAt: transition.at,
                      returnId: null
                    }
                  ]
            return {
              ...row,
              status: transition.status,
              updatedAt: transition.at,
              paidAt: transition.paidAt,
              refundedAmount: transition.refundedAmount,
              pix:
                row.pix === null || transition.pixEndToEndId === undefined
                  ? row.pix
                  : { ...row.pix, endToEndId: transition.pixEndToEndId },
              timeline: [
                ...row.timeline,
                { status: transition.status, event: transition.event, createdAt: transition.at }
              ],
              movements: [...row.movements, ...movements],
              refunds: [...row.refunds, ...refunds]
            }
          })
        ),

      settleCardPayment: (invoice, settlement) =>
        update(invoice, (row) =>
          Effect.map(ledgerEntries(settlement.movements, settlement.at), (movements) => ({
            ...row,
            status: settlement.status,
            refusedReason: settlement.refusedReason,
            paidAt: settlement.status === "paid" ? settlement.at : null,
            installments: settlement.installments,
            fee: asJson(settlement.fee),
            card: asJson(settlement.card),
            cardReferenceId: settlement.cardAssociate.id,
            updatedAt: settlement.at,
            timeline: [
              ...row.timeline,
              {
                status: settlement.status as InvoiceStatus.InvoiceStatus,
                event: InvoiceStatus.eventType(settlement.status),
                createdAt: settlement.at
              }
            ],
            movements: [...row.movements, ...movements]
          }))
        ),

      list: (filter) =>
        database.read((tables) => {
          const cursor = filter.beforeId === null ? undefined : tables.invoices.get(filter.beforeId)
          return [...tables.invoices.values()]
            .filter(
              (row) =>
                row.companyId === filter.companyId &&
                row.mode === filter.mode &&
                (filter.beforeId === null || (cursor !== undefined && newestFirst(cursor, row) < 0)) &&
                (filter.status === null || row.status === filter.status) &&
                (filter.method === null || row.method === filter.method) &&
                (filter.createdGte === null || row.createdAt >= filter.createdGte) &&
                (filter.createdLte === null || row.createdAt <= filter.createdLte) &&
                (filter.externalRef === null || row.externalRef === filter.externalRef)
            )
            .sort(newestFirst)
            .slice(0, filter.limit + 1)
            .map((row) => toInvoice(tables, row))
        }),

      findDueForExpiry: (now, today, limit) =>
        database.read((tables) =>
          [...tables.invoices.values()]
            .filter(
              (row) =>
                row.status === "pending" &&
                ((row.method === "pix" && row.pix !== null && row.pix.expiresAt <= now) ||
                  (row.method === "bank_slip" && row.boleto !== null && row.boleto.dueDate < today))
            )
            .sort((a, b) => a.id - b.id)
            .slice(0, limit)
            .map((row) => ({ id: row.id, companyId: row.companyId }))
        ),

      lockPendingForExpiry: (ids) =>
        database.statement(
          Effect.gen(function* () {
            const isPending = (tables: Tables, id: Invoice.InvoiceId) => tables.invoices.get(id)?.status === "pending"
            const candidates = yield* database.read((tables) =>
              [...new Set(ids)].filter((id) => isPending(tables, id)).sort((a, b) => a - b)
            )
            // SKIP LOCKED: an invoice another transaction holds is left to it. One taken is read again under the
            // lock, as Postgres does: a move may have committed since.
            const locked = yield* Effect.filter(candidates, (id) => database.tryLock(invoiceLock(id)))
            return yield* database.read((tables) => locked.filter((id) => isPending(tables, id)))
          })
        ),

      findById,

      findBySecureId: (secureId) =>
        database.read((tables) => {
          const row = [...tables.invoices.values()].find((invoice) => invoice.secureId === secureId)
          return Option.map(Option.fromNullishOr(row), (found) => toInvoice(tables, found))
        }),

      recordEvent: (event) =>
        database.statement(
          Effect.gen(function* () {
            const clash = yield* database.read((tables) =>
              tables.events.has(event.id)
                ? "events_pkey"
                : !tables.companies.has(event.companyId)
                  ? "events_company_id_fkey"
                  : !tables.invoices.has(event.invoiceId)
                    ? "events_invoice_id_fkey"
                    : undefined
            )
            if (clash !== undefined) return yield* violated(clash, `event ${event.id} cannot be recorded`)
            const seq = yield* database.nextval("events")
            yield* database.write(
              put("events", event.id, {
                id: event.id,
                seq,
                companyId: event.companyId,
                invoiceId: event.invoiceId,
                type: event.type,
                livemode: event.livemode,
                data: asJson(event.data),
                createdAt: event.createdAt,
                reason: event.reason ?? null
              })
            )
            // The outbox: the delivery is written with the event, or neither is.
            if (event.postbackUrl !== null) {
              const id = yield* database.nextval("deliveries")
              yield* database.write(
                put("deliveries", id, {
                  id,
                  eventId: event.id,
                  companyId: event.companyId,
                  url: event.postbackUrl,
                  status: "pending",
                  attempts: 0,
                  lastStatusCode: null,
                  lastError: null,
                  nextAttemptAt: event.createdAt,
                  leaseUntil: null,
                  leasedBy: null,
                  createdAt: event.createdAt,
                  updatedAt: event.createdAt
                })
              )
            }
          })
        ),

      findByPixTxid: (txid) =>
        database.read((tables) =>
          Option.map(Option.fromNullishOr([...tables.invoices.values()].find((row) => row.pix?.txid === txid)), (row) =>
            toInvoice(tables, row)
          )
        ),

      recordPendingRefund: (invoice, request) =>
        Effect.gen(function* () {
          if (!(request.amount > 0)) return yield* violated("refunds_amount_check", `a refund of ${request.amount}`)
          const id = yield* database.nextval("refunds")
          yield* update(invoice, (row) =>
            Effect.map(ledgerEntries(request.movements, request.at), (movements) => ({
              ...row,
              updatedAt: request.at,
              movements: [...row.movements, ...movements],
              refunds: [
                ...row.refunds,
                {
                  id,
                  amount: request.amount,
                  reason: request.reason,
                  status: "pending" as const,
                  failureReason: null,
                  createdAt: request.at,
                  returnId: request.returnId
                }
              ]
            }))
          )
          return id
        }),

      findPendingRefund: (returnId) =>
        database.read((tables) =>
          Option.fromNullishOr(pendingRefunds(tables).find((refund) => refund.returnId === returnId))
        ),

      closePendingRefund: (invoice, refundId, outcome, at) =>
        Effect.gen(function* () {
          const current = yield* findById(invoice.id)
          const refund = Option.getOrThrow(current).refunds.find((entry) => entry.id === refundId)
          if (refund?.status !== "pending") return false
          yield* update(invoice, (row) =>
            Effect.map(
              ledgerEntries(outcome.status === "failed" ? outcome.movements : [], at),
              (movements): InvoiceRow => ({
                ...row,
                updatedAt: outcome.status === "failed" ? at : row.updatedAt,
                movements: [...row.movements, ...movements],
                refunds: row.refunds.map((entry) =>
                  entry.id === refundId
                    ? {
                        ...entry,
                        status: outcome.status,
                        failureReason: outcome.status === "failed" ? outcome.reason : null
                      }
                    : entry
                )
              })
            )
          )
          return true
        }),

      stalePendingRefunds: (createdBefore, limit) =>
        database.read((tables) =>
          pendingRefunds(tables)
            .filter((refund) => refund.status === "pending" && refund.createdAt < createdBefore)
            .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id - b.id))
            .slice(0, limit)
        ),

      recordPixRejection: (rejection) =>
        database.statement(
          Effect.gen(function* () {
            yield* database.lock(`pix_rejections ${rejection.endToEndId}`)
            if (yield* database.read((tables) => tables.pixRejections.has(rejection.endToEndId))) return false
            yield* database.write(
              put("pixRejections", rejection.endToEndId, {
                endToEndId: rejection.endToEndId,
                invoiceId: rejection.invoiceId,
                amount: rejection.amount,
                returnId: rejection.returnId,
                returnState: "pending",
                createdAt: rejection.at
              })
            )
            return true
          })
        ),

      closePixRejection: (returnId, state) =>
        database.statement(
          Effect.gen(function* () {
            const found = yield* database.read((tables) =>
              [...tables.pixRejections.values()].find((rejection) => rejection.returnId === returnId)
            )
            if (found === undefined || found.returnState !== "pending") return
            yield* database.write(put("pixRejections", found.endToEndId, { ...found, returnState: state }))
          })
        ),

      findPendingReturns: (returnIds) =>
        database.read((tables) => {
          const wanted = new Set(returnIds)
          return {
            refunds: pendingRefunds(tables).filter(
              (refund) => refund.status === "pending" && wanted.has(refund.returnId)
            ),
            rejections: [...tables.pixRejections.values()].filter(
              (rejection) => rejection.returnState === "pending" && wanted.has(rejection.returnId)
            )
          }
        }),

      stalePixRejections: (createdBefore, limit) =>
        database.read((tables) =>
          [...tables.pixRejections.values()]
            .filter((rejection) => rejection.returnState === "pending" && rejection.createdAt < createdBefore)
            .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0))
            .slice(0, limit)
        ),

      pixListedUntil: database.read((tables) => Option.fromNullishOr(tables.pixReconciliations.get("pix"))),

      setPixListedUntil: (until) =>
        database.statement(
          Effect.gen(function* () {
            const listed = yield* database.read((tables) => tables.pixReconciliations.get("pix"))
            if (listed === undefined || listed < until) yield* database.write(put("pixReconciliations", "pix", until))
          })
        )
    })
  })
)
