// The rows of the in-memory ports of a bank's files (SPEC 15): boleto registrations, the files, the payouts, and the
// pix charges of hybrid boletos to remove.
import type { Invoice, Timestamp } from "@fatura/domain"
import type { BankService } from "../banks/BankFileRepository.js"
import type { BankPayout } from "../banks/BankPayoutRepository.js"
import type { BoletoRegistrationRecord } from "../boletos/BoletoRegistrationRepository.js"

export interface BoletoRegistrationRow extends BoletoRegistrationRecord {
  /** When its invoice was paid otherwise and the boleto withdrawn from the bank; null while it stands. */
  readonly withdrawnAt: Timestamp.Timestamp | null
  /** Whether a write-off must be sent (the registration had been), and the remessa that carries it. */
  readonly writeOffQueued: boolean
  readonly writeOffRemessa: string | null
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

export interface PixChargeRemovalRow {
  readonly txid: string
  readonly invoiceId: Invoice.InvoiceId
  readonly queuedAt: Timestamp.Timestamp
  readonly doneAt: Timestamp.Timestamp | null
}
