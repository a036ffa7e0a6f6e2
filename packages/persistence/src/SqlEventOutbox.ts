// The EventOutbox port in SQL: the event and its delivery in the one transaction (SPEC 8.1).
import { EventOutbox } from "@fatura/application"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { storage } from "./Columns.js"
import * as Statements from "./Statements.js"

export const layer = Layer.effect(
  EventOutbox,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    return EventOutbox.of({
      recordEvent: (event) =>
        Effect.gen(function* () {
          yield* sql.unsafe(Statements.insertEvent, [
            event.id,
            event.companyId,
            event.invoiceId,
            event.type,
            event.livemode,
            JSON.stringify(event.data),
            event.createdAt,
            event.reason ?? null
          ])
          // The outbox: the delivery commits with the event, or neither does (SPEC 8.1).
          if (event.postbackUrl !== null) {
            yield* sql`
              INSERT INTO deliveries (event_id, company_id, url, status, next_attempt_at, created_at, updated_at)
              VALUES (${event.id}, ${event.companyId}, ${event.postbackUrl}, 'pending', ${event.createdAt}::timestamptz,
                      ${event.createdAt}::timestamptz, ${event.createdAt}::timestamptz)`
          }
        }).pipe(storage)
    })
  })
)
