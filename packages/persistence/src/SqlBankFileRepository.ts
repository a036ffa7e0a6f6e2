// The BankFileRepository port in SQL (migration 0022): every file exchanged with the bank, as it was; a remessa's
// number from a sequence, which a rollback does not take back; a retorno recorded once by its name's primary key.
import { BankFileRepository, type BankService } from "@fatura/application"
import { Timestamp } from "@fatura/domain"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeOne, decodeRows, Integer } from "./ColumnSchemas.js"
import { storage } from "./Columns.js"

const Service = Schema.Literals(["cobranca", "pagamentos", "refusal"])

const decodeRemessas = decodeRows(
  Schema.Struct({
    name: Schema.String,
    service: Service,
    sequence: Integer,
    content: Schema.String,
    created_at: Timestamp.Timestamp
  })
)
const decodeNumber = decodeOne(Schema.Struct({ n: Integer }))

export const layer = Layer.effect(
  BankFileRepository,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const setStatus = (name: string, status: string, at: Timestamp.Timestamp) =>
      sql`UPDATE bank_files SET status = ${status}, updated_at = ${at}::timestamptz WHERE name = ${name}`.pipe(
        Effect.asVoid,
        storage
      )

    return BankFileRepository.of({
      nextSequence: sql`SELECT nextval('bank_remessa_sequence') AS n`.pipe(
        Effect.flatMap(decodeNumber),
        Effect.map((row) => row.n),
        storage
      ),

      recordRemessa: (remessa) =>
        sql`
          INSERT INTO bank_files (name, direction, service, sequence, content, status, created_at, updated_at)
          VALUES (${remessa.name}, 'remessa', ${remessa.service}, ${remessa.sequence}, ${remessa.content}, 'written',
            ${remessa.createdAt}::timestamptz, ${remessa.createdAt}::timestamptz)`.pipe(Effect.asVoid, storage),

      unsent: sql`
        SELECT name, service, sequence, content, fatura_ts(created_at) AS created_at FROM bank_files
        WHERE status = 'written' ORDER BY created_at, name`.pipe(
        Effect.flatMap(decodeRemessas),
        Effect.map((rows) =>
          rows.map((row) => ({
            name: row.name,
            service: row.service as BankService,
            sequence: row.sequence,
            content: row.content,
            createdAt: row.created_at
          }))
        ),
        storage
      ),

      markSent: (name, at) => setStatus(name, "sent", at),
      markRefused: (name, at) => setStatus(name, "refused", at),

      isRead: (name) =>
        sql`SELECT 1 AS n FROM bank_files WHERE name = ${name} AND direction = 'retorno'`.pipe(
          Effect.map((rows) => rows.length > 0),
          storage
        ),

      recordRead: (file, at) =>
        sql`
          INSERT INTO bank_files (name, direction, service, content, status, created_at, updated_at)
          VALUES (${file.name}, 'retorno', ${file.service}, ${file.content}, 'read', ${at}::timestamptz,
            ${at}::timestamptz)
          ON CONFLICT (name) DO NOTHING
          RETURNING name`.pipe(
          Effect.map((rows) => rows.length === 1),
          storage
        )
    })
  })
)
