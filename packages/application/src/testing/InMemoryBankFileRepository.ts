// The BankFileRepository port in memory: every file exchanged with the bank by name; a remessa's number from a
// sequence a rollback does not take back; a retorno recorded once.
import { Effect, Layer } from "effect"
import { BankFileRepository } from "../banks/BankFileRepository.js"
import type { BankFileRow } from "./InMemoryBankTables.js"
import { InMemoryDatabase, violated } from "./InMemoryDatabase.js"
import { put } from "./InMemoryTables.js"

export const layer = Layer.effect(
  BankFileRepository,
  Effect.gen(function* () {
    const database = yield* InMemoryDatabase

    const setStatus = (name: string, status: BankFileRow["status"], at: BankFileRow["updatedAt"]) =>
      database.statement(
        Effect.gen(function* () {
          yield* database.lock(`bank file ${name}`)
          const row = yield* database.read((tables) => tables.bankFiles.get(name))
          if (row !== undefined) yield* database.write(put("bankFiles", name, { ...row, status, updatedAt: at }))
        })
      )

    return BankFileRepository.of({
      nextSequence: database.nextval("bankRemessas"),

      recordRemessa: (remessa) =>
        database.statement(
          Effect.gen(function* () {
            yield* database.lock(`bank file ${remessa.name}`)
            if (yield* database.read((tables) => tables.bankFiles.has(remessa.name))) {
              return yield* violated("bank_files_pkey", `a file named ${remessa.name} exists`)
            }
            yield* database.write(
              put("bankFiles", remessa.name, {
                name: remessa.name,
                direction: "remessa",
                service: remessa.service,
                sequence: remessa.sequence,
                content: remessa.content,
                status: "written",
                createdAt: remessa.createdAt,
                updatedAt: remessa.createdAt
              })
            )
          })
        ),

      unsent: database.read((tables) =>
        [...tables.bankFiles.values()]
          .filter((row) => row.direction === "remessa" && row.status === "written")
          .sort((a, b) =>
            a.createdAt === b.createdAt ? a.name.localeCompare(b.name) : a.createdAt < b.createdAt ? -1 : 1
          )
          .map((row) => ({
            name: row.name,
            service: row.service,
            sequence: row.sequence ?? 0,
            content: row.content,
            createdAt: row.createdAt
          }))
      ),

      markSent: (name, at) => setStatus(name, "sent", at),
      markRefused: (name, at) => setStatus(name, "refused", at),

      isRead: (name) => database.read((tables) => tables.bankFiles.get(name)?.direction === "retorno"),

      recordRead: (file, at) =>
        database.statement(
          Effect.gen(function* () {
            yield* database.lock(`bank file ${file.name}`)
            if (yield* database.read((tables) => tables.bankFiles.has(file.name))) return false
            yield* database.write(
              put("bankFiles", file.name, {
                ...file,
                direction: "retorno",
                sequence: null,
                status: "read",
                createdAt: at,
                updatedAt: at
              })
            )
            return true
          })
        )
    })
  })
)
