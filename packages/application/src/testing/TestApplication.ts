// Every use case of the application over the in-memory ports and the stand-in providers: what the server runs,
// without a database or a network. The ports stay reachable beside the use cases, for tests to look into.
import { Layer } from "effect"
import { BalanceStatement } from "../balances/BalanceStatement.js"
import { BoletoRegistrations } from "../boletos/BoletoRegistrations.js"
import { CardCharges } from "../cards/CardCharges.js"
import { CardTokens } from "../cards/CardTokens.js"
import { ApiKeys } from "../companies/ApiKeys.js"
import { Authentication } from "../companies/Authentication.js"
import { Companies } from "../companies/Companies.js"
import { Invoices } from "../invoices/Invoices.js"
import { Expirations } from "../moves/Expirations.js"
import { InvoiceLifecycle } from "../moves/InvoiceLifecycle.js"
import { PixSettlements } from "../pix/PixSettlements.js"
import { Retention } from "../platform/Retention.js"
import { Postbacks } from "../postbacks/Postbacks.js"
import { WebhookEndpoints } from "../postbacks/WebhookEndpoints.js"
import { Receivables } from "../receivables/Receivables.js"
import { AutoWithdrawals } from "../withdrawals/AutoWithdrawals.js"
import { WithdrawalSweep } from "../withdrawals/WithdrawalSweep.js"
import { Withdrawals } from "../withdrawals/Withdrawals.js"
import * as InMemoryPorts from "./InMemoryPorts.js"
import * as TestBoletoIssuer from "./TestBoletoIssuer.js"
import * as TestCardAcquirer from "./TestCardAcquirer.js"
import * as TestPayoutRail from "./TestPayoutRail.js"
import * as TestPixProvider from "./TestPixProvider.js"
import * as TestPostbackSender from "./TestPostbackSender.js"
import * as TestPostbackTargets from "./TestPostbackTargets.js"

/** The stand-ins of the providers the use cases talk to outside the database. */
export const providers = Layer.mergeAll(
  TestPixProvider.layer,
  TestBoletoIssuer.layer,
  TestCardAcquirer.layer,
  TestPostbackSender.layer,
  TestPostbackTargets.layer,
  TestPayoutRail.layer
)

/** Every use case, needing the ports and the providers. */
export const useCases = Layer.mergeAll(
  Authentication.layer,
  Companies.layer,
  ApiKeys.layer,
  Invoices.layer.pipe(Layer.provideMerge(CardCharges.layer)),
  Expirations.layer.pipe(Layer.provideMerge(InvoiceLifecycle.layer), Layer.provideMerge(PixSettlements.layer)),
  Postbacks.layer,
  WebhookEndpoints.layer,
  BalanceStatement.layer,
  Receivables.layer,
  AutoWithdrawals.layer.pipe(Layer.provideMerge(Withdrawals.layer)),
  WithdrawalSweep.layer,
  Retention.layer,
  BoletoRegistrations.layer,
  CardTokens.layer
)

/**
 * Every use case over a new in-memory database and `providerLayer`: the stand-ins, or some of them replaced by your
 * own (a later layer in `Layer.mergeAll` wins), such as a postback receiver that fails or an acquirer of yours.
 */
export const withProviders = <E, R>(
  providerLayer: Layer.Layer<Layer.Success<typeof providers>, E, R>
): Layer.Layer<
  Layer.Success<typeof useCases> | Layer.Success<typeof providers> | Layer.Success<typeof InMemoryPorts.layer>,
  E,
  R
> => useCases.pipe(Layer.provideMerge(providerLayer), Layer.provideMerge(InMemoryPorts.layer))

/** Every use case over a new in-memory database and the stand-in providers. */
export const layer = withProviders(providers)
