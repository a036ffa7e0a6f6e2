// The whole HTTP contract of Fatura, shared by the server and every typed client.
import { HttpApi, OpenApi } from "effect/http-api"
import { CompanyApi } from "./CompanyApi.js"
import * as ContractDocument from "./ContractDocument.js"
import { InvoicesApi } from "./InvoicesApi.js"
import { PublicApi } from "./PublicApi.js"
import { SandboxApi } from "./SandboxApi.js"
import { SystemApi } from "./SystemApi.js"
import { WebhooksApi } from "./WebhooksApi.js"
import { WithdrawalsApi } from "./WithdrawalsApi.js"

export class FaturaApi extends HttpApi.make("fatura")
  .add(InvoicesApi)
  .add(CompanyApi)
  .add(PublicApi)
  .add(SandboxApi)
  .add(WebhooksApi)
  .add(WithdrawalsApi)
  .add(SystemApi)
  // Report every problem of a request at once, one `issues` entry each (SPEC 3).
  .annotate(HttpApi.PayloadParseOptions, { errors: "all" })
  .annotate(HttpApi.QueryParseOptions, { errors: "all" })
  .annotateMerge(
    OpenApi.annotations({
      title: "Fatura",
      version: "2",
      // No open-source licence: the packages are UNLICENSED; SPDX names such a licence with a LicenseRef.
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
      description:
        "Payment invoices for Brazilian merchants: pix, boleto and credit card. Money is integer cents; every error " +
        "is `{ code, message, issues? }`; every response carries `X-Request-Id`.",
      transform: ContractDocument.complete
    })
  ) {}
