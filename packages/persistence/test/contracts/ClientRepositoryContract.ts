// The ClientRepository contract, as creating and paying invoices rely on it: one client per company, mode and
// document, refreshed by later contact data; one card reference per distinct card of a client.
import { expect } from "@effect/vitest"
import { ClientRepository } from "@fatura/application"
import { Effect } from "effect"
import { aCompany, at, cardToAssociate, payer } from "../support/Fixtures.js"
import type { Contract } from "../support/TestDatabases.js"

export const clientRepositoryContract: Contract = (it) => {
  it.effect("keeps one client per company, mode and document, refreshed by later contact data", () =>
    Effect.gen(function* () {
      const clients = yield* ClientRepository
      const company = yield* aCompany()
      const other = yield* aCompany()
      const contact = {
        companyId: company.id,
        mode: "test" as const,
        document: payer.document,
        name: "Maria",
        email: "maria@antigo.example",
        phone: "+5511999990000",
        now: at(0)
      }
      const first = yield* clients.upsertClient(contact)
      const again = yield* clients.upsertClient({
        ...contact,
        name: "Maria Souza",
        email: "maria@novo.example",
        phone: null,
        now: at(60)
      })

      expect(again).toEqual({
        ...first,
        name: "Maria Souza",
        email: "maria@novo.example",
        phone: "+5511999990000",
        updatedAt: at(60)
      })
      const live = yield* clients.upsertClient({ ...contact, mode: "live" })
      const otherCompanys = yield* clients.upsertClient({ ...contact, companyId: other.id })
      expect(new Set([first.id, live.id, otherCompanys.id]).size).toBe(3)
    })
  )

  it.effect("keeps one card reference per distinct card of a client", () =>
    Effect.gen(function* () {
      const clients = yield* ClientRepository
      const company = yield* aCompany()
      const contact = { companyId: company.id, document: payer.document, name: "Maria", email: "m@e.example" }
      const client = yield* clients.upsertClient({ ...contact, mode: "test", phone: null, now: at(0) })
      const otherClient = yield* clients.upsertClient({ ...contact, mode: "live", phone: null, now: at(0) })
      const theCard = cardToAssociate(company, client.id, at(0))

      const first = yield* clients.associateCard(theCard)
      expect(first).toEqual({ id: first.id, brand: "visa", lastDigits: "1111", clientId: client.id, createdAt: at(0) })
      expect(yield* clients.associateCard({ ...theCard, now: at(60) })).toEqual(first)
      const anotherCard = yield* clients.associateCard({ ...theCard, lastDigits: "2222" })
      const anotherClient = yield* clients.associateCard({ ...theCard, clientId: otherClient.id })
      expect(new Set([first.id, anotherCard.id, anotherClient.id]).size).toBe(3)
    })
  )
}
