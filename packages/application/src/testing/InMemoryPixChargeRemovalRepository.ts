// The PixChargeRemovalRepository port in memory: a removal per charge, by txid, queued once and done once.
import { Effect, Layer } from "effect"
import { PixChargeRemovalRepository } from "../pix/PixChargeRemovalRepository.js"
import { InMemoryDatabase } from "./InMemoryDatabase.js"
import { put } from "./InMemoryTables.js"

export const layer = Layer.effect(
  PixChargeRemovalRepository,
  Effect.gen(function* () {
    const database = yield* InMemoryDatabase

    return PixChargeRemovalRepository.of({
      queue: ({ txid, invoiceId }, at) =>
        database.statement(
          Effect.gen(function* () {
            yield* database.lock(`pix charge removal ${txid}`)
            if (yield* database.read((tables) => tables.pixChargeRemovals.has(txid))) return
            yield* database.write(put("pixChargeRemovals", txid, { txid, invoiceId, queuedAt: at, doneAt: null }))
          })
        ),

      pending: (limit) =>
        database.read((tables) =>
          [...tables.pixChargeRemovals.values()]
            .filter((row) => row.doneAt === null)
            .sort((a, b) =>
              a.queuedAt === b.queuedAt ? a.txid.localeCompare(b.txid) : a.queuedAt < b.queuedAt ? -1 : 1
            )
            .slice(0, limit)
            .map((row) => ({ txid: row.txid, invoiceId: row.invoiceId }))
        ),

      markDone: (txid, at) =>
        database.statement(
          Effect.gen(function* () {
            yield* database.lock(`pix charge removal ${txid}`)
            const row = yield* database.read((tables) => tables.pixChargeRemovals.get(txid))
            if (row !== undefined && row.doneAt === null) {
              yield* database.write(put("pixChargeRemovals", txid, { ...row, doneAt: at }))
            }
          })
        )
    })
  })
)
