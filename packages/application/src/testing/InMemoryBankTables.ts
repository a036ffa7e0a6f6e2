// The rows of the in-memory ports of a bank's files (SPEC 15): boleto registrations, the files, the payouts.
import type { Timestamp } from "@fatura/domain"
import type { BankService } from "../banks/BankFileRepository.js"
import type { BankPayout } from "../banks/BankPayoutRepository.js"
import type { BoletoRegistrationRecord } from "../boletos/BoletoRegistrationRepository.js"

export interface BoletoRegistrationRow extends BoletoRegistrationRecord {
  readonly createdAt: Timestamp.Timestamp
  readonly updatedAt: Timestamp.Timestamp
}

export interface BankFileRow {
  readonly name: string
  readonly direction: "remessa" | "retorno"
  readonly service: BankService
  readonly sequence: number | null
  readonly content: string
  readonly status: "written" | "sent" | "refused" | "read"
  readonly createdAt: Timestamp.Timestamp
  readonly updatedAt: Timestamp.Timestamp
}

export interface BankPayoutRow extends BankPayout {
  readonly createdAt: Timestamp.Timestamp
}
