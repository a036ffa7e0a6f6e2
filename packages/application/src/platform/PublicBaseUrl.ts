// Where payers reach the service: the base of boleto PDF and checkout links (SPEC 12.1 PUBLIC_BASE_URL).
import { Context } from "effect"

export const PublicBaseUrl = Context.Reference<string>("@fatura/application/PublicBaseUrl", {
  defaultValue: () => "http://localhost:3000"
})
