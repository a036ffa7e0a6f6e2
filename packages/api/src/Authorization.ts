// The security of the protected endpoints (SPEC 2): a bearer secret key that resolves to the calling company.
import type { Company, Invoice } from "@fatura/domain"
import { Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import {
  ForbiddenResponse,
  NotFoundResponse,
  RateLimitedResponse,
  UnauthorizedResponse,
  UnavailableResponse
} from "./ApiErrorResponse.js"

/**
 * `Authorization: Bearer <token>`, declared in the OpenAPI document as `scheme: bearer` in lower case, as the IANA
 * registry spells it: `HttpApiSecurity.bearer` writes `Bearer`, which documentation tools that match the scheme
 * exactly (Scalar, at `/docs`) take for HTTP Basic, and their samples then send `Basic username:password`. Schemes are
 * case-insensitive (RFC 9110 §11.1): the server takes either.
 */
const bearer = HttpApiSecurity.http({ scheme: "bearer" })

/** The company and mode behind the request's secret key, for the handlers that run after authentication. */
export class Caller extends Context.Service<
  Caller,
  {
    readonly keyId: number
    readonly mode: Invoice.Mode
    readonly companyId: Company.CompanyId
  }
>()("@fatura/api/Caller") {}

/** The company behind a public token (`pk_…`): what the payer's browser may act for. */
export class PublicCaller extends Context.Service<
  PublicCaller,
  {
    readonly mode: Invoice.Mode
    readonly company: Company.Company
  }
>()("@fatura/api/PublicCaller") {}

/** The security of card tokenization (SPEC 4.7): the company's public token, never a secret key. */
export class PublicTokenAuthorization extends HttpApiMiddleware.Service<
  PublicTokenAuthorization,
  { provides: PublicCaller; requires: never }
>()("@fatura/api/PublicTokenAuthorization", {
  requiredForClient: false,
  security: {
    publicToken: bearer.pipe(
      HttpApiSecurity.annotate(OpenApi.Description, "The company's public token, `pk_test_…` or `pk_live_…`.")
    )
  },
  error: [UnauthorizedResponse, ForbiddenResponse, RateLimitedResponse, UnavailableResponse]
}) {}

export class SecretKeyAuthorization extends HttpApiMiddleware.Service<
  SecretKeyAuthorization,
  { provides: Caller; requires: never }
>()("@fatura/api/SecretKeyAuthorization", {
  requiredForClient: true,
  security: {
    secretKey: bearer.pipe(HttpApiSecurity.annotate(OpenApi.Description, "A secret key, `sk_test_…` or `sk_live_…`."))
  },
  error: [UnauthorizedResponse, ForbiddenResponse, RateLimitedResponse, UnavailableResponse]
}) {}

/**
 * The security of `/metrics`, which shows platform-wide business volumes: the operator's metrics token, set on the
 * server (`FATURA_METRICS_TOKEN`). A server without one does not serve them (404).
 */
export class MetricsAuthorization extends HttpApiMiddleware.Service<MetricsAuthorization>()(
  "@fatura/api/MetricsAuthorization",
  {
    requiredForClient: false,
    security: {
      metricsToken: bearer.pipe(
        HttpApiSecurity.annotate(
          OpenApi.Description,
          "The server's metrics token (`FATURA_METRICS_TOKEN`); without one set, `/metrics` is not served."
        )
      )
    },
    error: [UnauthorizedResponse, NotFoundResponse]
  }
) {}
