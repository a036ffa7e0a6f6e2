// The ClientRepository port in memory: the payers of each company and mode, and the references of their cards.
import type { Invoice } from "@fatura/domain"
import { Effect, Layer } from "effect"
import { ClientRepository } from "../invoices/ClientRepository.js"
import { InMemoryDatabase, violated } from "./InMemoryDatabase.js"
import { put, toClient } from "./InMemoryTables.js"

export const layer = Layer.effect(
  ClientRepository,
  Effect.gen(function* () {
    const database = yield* InMemoryDatabase

    return ClientRepository.of({
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
        )
    })
  })
)
