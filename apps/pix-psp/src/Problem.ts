// The API Pix's error answers: RFC 7807 problem details (`application/problem+json`) whose `type` names one of the
// spec's error kinds (`https://pix.bcb.gov.br/api/v2/error/<Kind>`), with the `violacoes` that say what was wrong.
import { HttpServerResponse } from "effect/http"

export interface Violation {
  readonly razao: string
  readonly propriedade?: string
  readonly valor?: string
}

export const typeBase = "https://pix.bcb.gov.br/api/v2/error/"

const answer = (
  status: number,
  type: string,
  title: string,
  detail: string,
  options: { readonly violacoes?: ReadonlyArray<Violation>; readonly headers?: Record<string, string> } = {}
) =>
  HttpServerResponse.jsonUnsafe(
    { type, title, status, detail, ...(options.violacoes === undefined ? {} : { violacoes: options.violacoes }) },
    { status, contentType: "application/problem+json", ...(options.headers ? { headers: options.headers } : {}) }
  )

/** A 400 of one of the spec's "invalid" kinds (`CobOperacaoInvalida`, `PixDevolucaoInvalida`…). */
export const invalid = (kind: string, title: string, detail: string, violacoes: ReadonlyArray<Violation> = []) =>
  answer(400, typeBase + kind, title, detail, violacoes.length > 0 ? { violacoes } : {})

/** A 404 of one of the spec's "not found" kinds (`CobNaoEncontrado`, `PixNaoEncontrado`…). */
export const notFound = (kind: string, detail: string) => answer(404, typeBase + kind, "Não Encontrado", detail)

/** The spec's 403 `AcessoNegado`: an authorization rule says no, or the product is not offered to this client. */
export const accessDenied = (detail: string) => answer(403, `${typeBase}AcessoNegado`, "Acesso Negado", detail)

/** The spec's 503 `ServicoIndisponivel`. */
export const unavailable = (detail: string) =>
  answer(503, `${typeBase}ServicoIndisponivel`, "Serviço Indisponível", detail)

/**
 * 401: no bearer token, or one that is unknown or expired (RFC 6750). The spec lists no 401 (its OAuth2 scheme
 * implies it) and names no error kind for it, so the problem is the generic `about:blank`.
 */
export const unauthorized = (detail: string) =>
  answer(401, "about:blank", "Não Autorizado", detail, {
    headers: { "www-authenticate": 'Bearer realm="pix-psp", error="invalid_token"' }
  })

/** An answer of the simulator, which is not part of the API Pix: a generic problem. */
export const simulator = (status: number, title: string, detail: string) => answer(status, "about:blank", title, detail)
