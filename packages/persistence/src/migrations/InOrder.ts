// Every migration under the name a database records it by, in the order they apply. A new one goes in a file of
// its own beside these, named as it will be recorded, and is added here last: a test fails while one is left out.
import { migration as foundation } from "./0001_foundation.js"
import { migration as boletoCardIdempotency } from "./0002_boleto_card_idempotency.js"
import { migration as refunds } from "./0003_refunds.js"
import { migration as postbacks } from "./0004_postbacks.js"
import { migration as cardTokens } from "./0005_card_tokens.js"
import { migration as runningTotals } from "./0006_running_totals.js"
import { migration as idempotencyClaimsInTransaction } from "./0007_idempotency_claims_in_transaction.js"
import { migration as webhookSecretsPerMode } from "./0008_webhook_secrets_per_mode.js"
import { migration as idempotencyByPrincipal } from "./0009_idempotency_by_principal.js"
import { migration as retention } from "./0010_retention.js"
import { migration as listIndexes } from "./0011_list_indexes.js"
import { migration as chargesOutsideTransactions } from "./0012_charges_outside_transactions.js"
import { migration as pixProvider } from "./0013_pix_provider.js"
import { migration as lateCardCharges } from "./0014_late_card_charges.js"
import { migration as deploymentSecrets } from "./0015_deployment_secrets.js"
import { migration as webhookEndpoints } from "./0016_webhook_endpoints.js"
import { migration as balanceOperations } from "./0017_balance_operations.js"
import { migration as companyBankCode } from "./0018_company_bank_code.js"
import { migration as receivables } from "./0019_receivables.js"
import { migration as withdrawals } from "./0020_withdrawals.js"
import { migration as autoWithdrawals } from "./0021_auto_withdrawals.js"
import { migration as banks } from "./0022_banks.js"
import { migration as hybridBoletos } from "./0023_hybrid_boletos.js"

export const migrations = {
  "0001_foundation": foundation,
  "0002_boleto_card_idempotency": boletoCardIdempotency,
  "0003_refunds": refunds,
  "0004_postbacks": postbacks,
  "0005_card_tokens": cardTokens,
  "0006_running_totals": runningTotals,
  "0007_idempotency_claims_in_transaction": idempotencyClaimsInTransaction,
  "0008_webhook_secrets_per_mode": webhookSecretsPerMode,
  "0009_idempotency_by_principal": idempotencyByPrincipal,
  "0010_retention": retention,
  "0011_list_indexes": listIndexes,
  "0012_charges_outside_transactions": chargesOutsideTransactions,
  "0013_pix_provider": pixProvider,
  "0014_late_card_charges": lateCardCharges,
  "0015_deployment_secrets": deploymentSecrets,
  "0016_webhook_endpoints": webhookEndpoints,
  "0017_balance_operations": balanceOperations,
  "0018_company_bank_code": companyBankCode,
  "0019_receivables": receivables,
  "0020_withdrawals": withdrawals,
  "0021_auto_withdrawals": autoWithdrawals,
  "0022_banks": banks,
  "0023_hybrid_boletos": hybridBoletos
}
