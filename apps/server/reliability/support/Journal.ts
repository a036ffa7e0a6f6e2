// What the suite sent that must never be kept: every card number and security code, for the final scan.

export interface SentCard {
  readonly number: string
  readonly securityCode: string
}

const sent = new Map<string, SentCard>()

const recordCard = (card: SentCard) => {
  sent.set(`${card.number}/${card.securityCode}`, card)
}

export const sentCards = (): ReadonlyArray<SentCard> => [...sent.values()]

/** Sandbox test cards (SPEC 6.3) with security codes chosen to be rare in other text. */
export const testCards = {
  approved: { number: "4111111111111111", securityCode: "7351" },
  approvedMastercard: { number: "5555555555554444", securityCode: "8642" },
  declined: { number: "4000000000000002", securityCode: "5927" }
} as const satisfies Record<string, SentCard>

export const nextYear = String(new Date().getUTCFullYear() + 1)

/** The card object of a request body, recorded as sent. */
export const cardField = (card: SentCard) => {
  recordCard(card)
  return {
    number: card.number,
    first_name: "Maria",
    last_name: "Souza",
    month: "12",
    year: nextYear,
    security_code: card.securityCode
  }
}

export const payer = { name: "Maria Souza", cpf_cnpj: "529.982.247-25", email: "maria@example.com" }

export const boletoPayer = {
  ...payer,
  address_zip: "01310-100",
  address_line: "Avenida Paulista",
  address_number: "1000",
  address_city: "São Paulo",
  address_state: "SP"
}
