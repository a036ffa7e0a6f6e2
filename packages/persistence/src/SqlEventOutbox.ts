// The EventOutbox port in SQL: the event and its deliveries in one statement, so in the one transaction (SPEC 8.1).
import { EventOutbox } from "@fatura/application"
import { WebhookEndpoint } from "@fatura/domain"
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
        sql
          .unsafe(Statements.insertEvent, [
            event.id,
            event.companyId,
            event.invoiceId,
            event.type,
            event.livemode,
            JSON.stringify(event.data),
            event.createdAt,
            event.reason ?? null,
            event.postbackUrl,
            ...WebhookEndpoint.patternsMatching(event.type)
          ])
          .pipe(Effect.asVoid, storage)
    })
  })
)
