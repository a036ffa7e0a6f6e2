// The exchange with a bank by CNAB 240 files (SPEC 15): every interval, the remessas not yet known at the bank are
// uploaded (a process that died after writing or uploading one left it so; one already there is not sent again), the
// queued boleto registrations and write-offs, and the withdrawal payments, are each written into a new remessa — recorded, with its number
// and what it carries, in one transaction, then uploaded with nothing held, then marked sent — and every file of the
// bank's not read before is downloaded and acted on in one transaction that records it read, so that a file is acted
// on once, whatever happens between.
import {
  BankFileRepository,
  BankPayoutRepository,
  BoletoRegistrationRepository,
  BoletoRegistrations,
  type StorageUnavailable,
  Transactions
} from "@fatura/application"
import type { Invoice } from "@fatura/domain"
import { Context, type Duration, Effect, Layer, Schedule } from "effect"
import * as Cobranca from "../Cobranca.js"
import * as Pagamentos from "../Pagamentos.js"
import { BankTransport, type BankUnavailable, type Session } from "./BankTransport.js"
import { boletoOf, nowTimestamp, paymentOf, writtenNow } from "./ExchangeValues.js"
import { actOnCobranca, actOnPagamentos, actOnRefusal } from "./RetornoActions.js"

/** How many registrations or payments one remessa carries at most. */
const batchSize = 500

export interface Exchanged {
  readonly uploaded: ReadonlyArray<string>
  readonly read: ReadonlyArray<string>
}

export class BankExchange extends Context.Service<
  BankExchange,
  {
    /** One exchange: what it uploaded and what it read. */
    readonly exchange: Effect.Effect<Exchanged, StorageUnavailable | BankUnavailable>
    /** Exchanges every `interval` for ever; a failed exchange is logged and tried again at the next. */
    readonly run: (interval: Duration.Input) => Effect.Effect<never>
  }
>()("@fatura/cnab240/BankExchange") {}

export const layer = (agreement: Cobranca.Agreement) =>
  Layer.effect(
    BankExchange,
    Effect.gen(function* () {
      const files = yield* BankFileRepository
      const registrations = yield* BoletoRegistrationRepository
      const payouts = yield* BankPayoutRepository
      const boletos = yield* BoletoRegistrations
      const transactions = yield* Transactions
      const transport = yield* BankTransport

      /** Writes and records a remessa of what waits, in one transaction; its name, or none when nothing waits. */
      const writeCobranca = transactions.withTransaction(
        Effect.gen(function* () {
          const queued = yield* registrations.queued(batchSize)
          const writeOffs = yield* registrations.queuedWriteOffs(batchSize)
          if (queued.length === 0 && writeOffs.length === 0) return null
          const sequence = yield* files.nextSequence
          const name = `CB${String(sequence).padStart(6, "0")}.REM`
          const content = Cobranca.remessa({
            agreement,
            sequence,
            written: yield* writtenNow,
            instructions: [
              ...queued.map((invoice) => ({ _tag: "Register", boleto: boletoOf(invoice) }) as const),
              ...writeOffs.map((invoice) => ({ _tag: "WriteOff", boleto: boletoOf(invoice) }) as const)
            ]
          })
          const at = yield* nowTimestamp
          yield* files.recordRemessa({ name, service: "cobranca", sequence, content, createdAt: at })
          const idsOf = (invoices: ReadonlyArray<{ readonly id: Invoice.InvoiceId }>) => invoices.map(({ id }) => id)
          yield* registrations.assign(idsOf(queued), name, at)
          yield* registrations.assignWriteOffs(idsOf(writeOffs), name, at)
          return name
        })
      )

      const writePagamentos = transactions.withTransaction(
        Effect.gen(function* () {
          const queued = yield* payouts.queued(batchSize)
          if (queued.length === 0) return null
          const sequence = yield* files.nextSequence
          const name = `PG${String(sequence).padStart(6, "0")}.REM`
          const written = yield* writtenNow
          const content = Pagamentos.remessa({
            account: agreement,
            sequence,
            written,
            payments: queued.map((payout) => paymentOf(payout, written.date))
          })
          const at = yield* nowTimestamp
          yield* files.recordRemessa({ name, service: "pagamentos", sequence, content, createdAt: at })
          yield* payouts.assign(
            queued.map((payout) => payout.reference),
            name,
            at
          )
          return name
        })
      )

      /** Uploads every remessa not known at the bank, the oldest first, and marks each sent. */
      const uploadUnsent = (session: Session) =>
        Effect.gen(function* () {
          const uploaded: Array<string> = []
          for (const remessa of yield* files.unsent) {
            const outcome = yield* transactions.external(session.upload(remessa.name, remessa.content))
            if (outcome === "present")
              yield* Effect.logWarning("remessa found at the bank already", { file: remessa.name })
            yield* files.markSent(remessa.name, yield* nowTimestamp)
            uploaded.push(remessa.name)
          }
          return uploaded
        })

      /** Reads every file of the bank's not read before, each acted on in the transaction that records it read. */
      const readNew = (session: Session) =>
        Effect.gen(function* () {
          const read: Array<string> = []
          for (const name of [...(yield* transactions.external(session.retornos))].sort()) {
            if (yield* files.isRead(name)) continue
            const content = yield* transactions.external(session.download(name))
            const service = name.endsWith(".REJ") ? "refusal" : name.startsWith("PG") ? "pagamentos" : "cobranca"
            const acted = yield* transactions.withTransaction(
              Effect.gen(function* () {
                if (!(yield* files.recordRead({ name, service, content }, yield* nowTimestamp))) return false
                if (service === "refusal") yield* actOnRefusal(name, content)
                else if (service === "pagamentos") yield* actOnPagamentos(name, Pagamentos.retorno(content))
                else yield* actOnCobranca(name, Cobranca.retorno(content), boletos)
                return true
              })
            )
            if (acted) read.push(name)
          }
          return read
        })

      const exchange = Effect.gen(function* () {
        yield* writeCobranca
        yield* writePagamentos
        return yield* transport.session((session) =>
          Effect.gen(function* () {
            const uploaded = yield* uploadUnsent(session)
            const read = yield* readNew(session)
            return { uploaded, read }
          })
        )
      }).pipe(
        Effect.provideService(BankFileRepository, files),
        Effect.provideService(BoletoRegistrationRepository, registrations),
        Effect.provideService(BankPayoutRepository, payouts),
        Effect.withSpan("BankExchange.exchange")
      )

      const run = (interval: Duration.Input) =>
        exchange.pipe(
          Effect.tap(({ uploaded, read }) =>
            uploaded.length + read.length > 0 ? Effect.logInfo("bank files exchanged", { uploaded, read }) : Effect.void
          ),
          Effect.catchCause((cause) => Effect.logWarning("bank exchange failed: tried again at the next", cause)),
          Effect.repeat(Schedule.spaced(interval)),
          Effect.andThen(Effect.never)
        )

      return BankExchange.of({ exchange, run })
    })
  )
