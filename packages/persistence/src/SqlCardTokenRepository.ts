// The CardTokenRepository port in SQL: consuming a token is one conditional UPDATE, so it is used at most once
// however many payments race for it.
import { CardTokenRepository, type VaultedCard } from "@fatura/application"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { int, storage, text } from "./Columns.js"

export const layer = Layer.effect(
  CardTokenRepository,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return CardTokenRepository.of({
      create: (token) =>
        sql`
          INSERT INTO card_tokens (token_hash, company_id, mode, brand, first_digits, last_digits, holder_name,
                                   expiration_month, expiration_year, acquirer_reference, created_at, expires_at)
          VALUES (${token.tokenHash}, ${token.companyId}, ${token.mode}, ${token.brand}, ${token.firstDigits},
                  ${token.lastDigits}, ${token.holderName}, ${token.expirationMonth}, ${token.expirationYear},
                  ${token.acquirerReference}, ${token.createdAt}::timestamptz, ${token.expiresAt}::timestamptz)`.pipe(
          Effect.asVoid,
          storage
        ),
      consume: (companyId, mode, tokenHash, now) =>
        sql`
          UPDATE card_tokens SET used_at = ${now}::timestamptz
          WHERE token_hash = ${tokenHash} AND company_id = ${companyId} AND mode = ${mode}
            AND used_at IS NULL AND expires_at > ${now}::timestamptz
          RETURNING brand, first_digits, last_digits, holder_name, expiration_month, expiration_year,
            acquirer_reference`.pipe(
          Effect.map((rows) =>
            Option.map(
              Option.fromNullishOr(rows[0]),
              (row): VaultedCard => ({
                brand: text(row.brand),
                firstDigits: text(row.first_digits),
                lastDigits: text(row.last_digits),
                holderName: text(row.holder_name),
                expirationMonth: int(row.expiration_month),
                expirationYear: int(row.expiration_year),
                acquirerReference: text(row.acquirer_reference)
              })
            )
          ),
          storage
        )
    })
  })
)
