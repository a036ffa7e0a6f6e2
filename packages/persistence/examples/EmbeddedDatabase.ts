// Keeps a company in the embedded database: opens it in a directory of its own (migrating it on the way), registers
// the company through the CompanyRepository port, closes it, and finds the company again after opening it anew.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { CompanyRepository } from "@fatura/application"
import { type Company, FeePlan, PixKey, Timestamp } from "@fatura/domain"
import { Database } from "@fatura/persistence"
import { Effect, Option, Result } from "effect"

const dataDir = mkdtempSync(join(tmpdir(), "fatura-example-"))
// Without a database URL the database is the embedded one, kept in `dataDir`.
const database = Database.layer(Database.configFrom(undefined, dataDir))

const register = Effect.gen(function* () {
  const companies = yield* CompanyRepository
  return yield* companies.create({
    cnpj: "11222333000181",
    corporateReason: "Loja Exemplo Ltda",
    fantasyName: "Loja Exemplo",
    email: "financeiro@loja.example",
    pixKey: Result.getOrThrow(PixKey.parse("financeiro@loja.example")).key,
    feePlan: FeePlan.defaultFeePlan,
    isCustomFeePlan: false,
    now: Timestamp.fromEpochMicros(BigInt(Date.now()) * 1000n)
  })
})

const lookUp = (id: Company.CompanyId) =>
  Effect.gen(function* () {
    const companies = yield* CompanyRepository
    return yield* companies.findById(id)
  })

try {
  // Each run opens the database, and closes it when the program ends.
  const company = await Effect.runPromise(register.pipe(Effect.provide(database)))
  console.log(`registered company ${company.id}: ${company.fantasyName}`)
  const found = await Effect.runPromise(lookUp(company.id).pipe(Effect.provide(database)))
  console.log(`after reopening: ${Option.match(found, { onNone: () => "not found", onSome: (c) => c.fantasyName })}`)
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}
