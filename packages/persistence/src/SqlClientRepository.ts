// The ClientRepository port in SQL: one client per company, mode and document, and one card reference per distinct
// card of a client, both written by one upsert.
import { ClientRepository } from "@fatura/application"
import { type Invoice, Timestamp } from "@fatura/domain"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeOne, Integer } from "./ColumnSchemas.js"
import { storage } from "./Columns.js"
import { ClientIdColumn, ClientRow, toClient } from "./InvoiceRows.js"
import * as Statements from "./Statements.js"

const decodeClient = decodeOne(ClientRow)

const decodeCardReference = decodeOne(
  Schema.Struct({
    id: Integer,
    brand: Schema.String,
    last_digits: Schema.String,
    client_id: ClientIdColumn,
    created_at: Timestamp.Timestamp
  })
)

export const layer = Layer.effect(
  ClientRepository,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    return ClientRepository.of({
      upsertClient: (contact) =>
        sql
          .unsafe(Statements.upsertClient, [
            contact.companyId,
            contact.mode,
            contact.document.type,
            contact.document.number,
            contact.name,
            contact.email,
            contact.phone,
            contact.now
          ])
          .pipe(Effect.flatMap(decodeClient), Effect.map(toClient), storage),

      associateCard: (card) =>
        sql`
          INSERT INTO card_references AS r (company_id, client_id, brand, first_digits, last_digits, expiration_month,
                                            expiration_year, created_at)
          VALUES (${card.companyId}, ${card.clientId}, ${card.brand}, ${card.firstDigits}, ${card.lastDigits},
                  ${card.expirationMonth}, ${card.expirationYear}, ${card.now}::timestamptz)
          ON CONFLICT (client_id, brand, first_digits, last_digits, expiration_month, expiration_year)
            DO UPDATE SET brand = r.brand
          RETURNING id, brand, last_digits, client_id, fatura_ts(created_at) AS created_at`.pipe(
          Effect.flatMap(decodeCardReference),
          Effect.map(
            (row): Invoice.CardAssociate => ({
              id: row.id,
              brand: row.brand,
              lastDigits: row.last_digits,
              clientId: row.client_id,
              createdAt: row.created_at
            })
          ),
          storage
        )
    })
  })
)
