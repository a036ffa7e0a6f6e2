// Every storage port of the application over one new in-memory database: what the SQL adapters of
// @fatura/persistence provide over Postgres, for tests that need no database.
import { Layer } from "effect"
import * as InMemoryBankFileRepository from "./InMemoryBankFileRepository.js"
import * as InMemoryBankPayoutRepository from "./InMemoryBankPayoutRepository.js"
import * as InMemoryBoletoRegistrationRepository from "./InMemoryBoletoRegistrationRepository.js"
import * as InMemoryCardChargeRepository from "./InMemoryCardChargeRepository.js"
import * as InMemoryCardTokenRepository from "./InMemoryCardTokenRepository.js"
import * as InMemoryClientRepository from "./InMemoryClientRepository.js"
import * as InMemoryCompanyRepository from "./InMemoryCompanyRepository.js"
import * as InMemoryDatabase from "./InMemoryDatabase.js"
import * as InMemoryEventOutbox from "./InMemoryEventOutbox.js"
import * as InMemoryIdempotencyStore from "./InMemoryIdempotencyStore.js"
import * as InMemoryInvoiceRepository from "./InMemoryInvoiceRepository.js"
import * as InMemoryLedgerEntryRepository from "./InMemoryLedgerEntryRepository.js"
import * as InMemoryPixChargeRemovalRepository from "./InMemoryPixChargeRemovalRepository.js"
import * as InMemoryPixReturnRepository from "./InMemoryPixReturnRepository.js"
import * as InMemoryPostbackRepository from "./InMemoryPostbackRepository.js"
import * as InMemoryReadiness from "./InMemoryReadiness.js"
import * as InMemoryReceivableRepository from "./InMemoryReceivableRepository.js"
import * as InMemoryTransactions from "./InMemoryTransactions.js"
import * as InMemoryWebhookEndpointRepository from "./InMemoryWebhookEndpointRepository.js"
import * as InMemoryWithdrawalRepository from "./InMemoryWithdrawalRepository.js"

/**
 * CompanyRepository, InvoiceRepository, LedgerEntryRepository, ClientRepository, CardChargeRepository,
 * PixReturnRepository, PixChargeRemovalRepository, EventOutbox, PostbackRepository, ReceivableRepository,
 * WebhookEndpointRepository, WithdrawalRepository, BoletoRegistrationRepository, BankFileRepository,
 * BankPayoutRepository, CardTokenRepository, IdempotencyStore, Transactions and Readiness, sharing one database that
 * starts empty each time the layer is built.
 */
export const layer = Layer.mergeAll(
  InMemoryBankFileRepository.layer,
  InMemoryBankPayoutRepository.layer,
  InMemoryBoletoRegistrationRepository.layer,
  InMemoryCardChargeRepository.layer,
  InMemoryCardTokenRepository.layer,
  InMemoryClientRepository.layer,
  InMemoryCompanyRepository.layer,
  InMemoryEventOutbox.layer,
  InMemoryIdempotencyStore.layer,
  InMemoryInvoiceRepository.layer,
  InMemoryLedgerEntryRepository.layer,
  InMemoryPixChargeRemovalRepository.layer,
  InMemoryPixReturnRepository.layer,
  InMemoryPostbackRepository.layer,
  InMemoryReceivableRepository.layer,
  InMemoryTransactions.layer,
  InMemoryWebhookEndpointRepository.layer,
  InMemoryWithdrawalRepository.layer,
  InMemoryReadiness.layer
).pipe(Layer.provide(InMemoryDatabase.layer))
