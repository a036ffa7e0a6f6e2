// What an answer of the API Pix means, whatever the call (`PspExchange.classify`), for every class of status: a 2xx
// is a success; the API Pix's 404 is a thing the PSP does not have; any other 4xx with problem details is a definite
// refusal, with the PSP's words as its reason — except 401, 408 and 429, which say "not now"; and a 1xx, 3xx or 5xx,
// or an error without problem details, is no usable answer: PixProviderUnavailable.
import { describe, expect, it } from "@effect/vitest"
import * as PspExchange from "../src/PspExchange.js"

const what = "PUT /pix/E1/devolucao/D1"

const problem = (status: number) =>
  JSON.stringify({
    type: "https://pix.bcb.gov.br/api/v2/error/PixDevolucaoInvalida",
    title: "Devolução inválida.",
    status,
    detail: "A devolução não faz sentido semanticamente.",
    violacoes: [{ razao: "O prazo de 90 dias terminou.", propriedade: "e2eid" }]
  })

const reason =
  "Devolução inválida. — A devolução não faz sentido semanticamente. — (e2eid: O prazo de 90 dias terminou.)"

const verdictOf = (status: number, text: string) => {
  const verdict = PspExchange.classify({ status, text }, what)
  return verdict._tag === "Unavailable" ? { _tag: verdict._tag, message: verdict.error.message } : verdict
}

describe("classify", () => {
  it("a 2xx is a success, whatever its body (the call reads it)", () => {
    for (const status of [200, 201, 204, 299]) {
      expect(verdictOf(status, "{}")).toEqual({ _tag: "Success", answer: { status, text: "{}" } })
    }
  })

  it("a 404 with problem details is a thing the PSP does not have; without them, no answer of the API Pix", () => {
    expect(verdictOf(404, problem(404))).toEqual({ _tag: "NotFound", reason })
    expect(verdictOf(404, "<html>Not Found</html>")).toEqual({
      _tag: "Unavailable",
      message: `the PSP answered ${what} with 404`
    })
  })

  it("any other 4xx with problem details is a definite refusal, with the PSP's words", () => {
    for (const status of [400, 403, 405, 409, 410, 413, 415, 422, 451, 499]) {
      expect(verdictOf(status, problem(status))).toEqual({ _tag: "Refused", status, reason })
    }
  })

  it("a problem that says nothing but its type is refused with its type as the reason", () => {
    expect(verdictOf(400, JSON.stringify({ type: "https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida" }))).toEqual(
      { _tag: "Refused", status: 400, reason: "https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida" }
    )
  })

  it("401, 408 and 429 say not now, problem details or not: unavailable", () => {
    for (const status of [401, 408, 429]) {
      expect(verdictOf(status, problem(status))).toEqual({
        _tag: "Unavailable",
        message: `the PSP answered ${what} with ${status} ${reason}`
      })
      expect(verdictOf(status, "")).toEqual({ _tag: "Unavailable", message: `the PSP answered ${what} with ${status}` })
    }
  })

  it("a 4xx without problem details is not the API Pix answering (a proxy's page): unavailable", () => {
    for (const status of [400, 403, 409, 422]) {
      expect(verdictOf(status, "<html>Bad Request</html>")._tag).toBe("Unavailable")
      expect(verdictOf(status, JSON.stringify({ message: "no" }))._tag).toBe("Unavailable")
    }
  })

  it("a 5xx is unavailable, with what the PSP said when it said something", () => {
    for (const status of [500, 502, 503, 504, 599]) {
      expect(verdictOf(status, "")).toEqual({ _tag: "Unavailable", message: `the PSP answered ${what} with ${status}` })
      expect(verdictOf(status, problem(status))).toEqual({
        _tag: "Unavailable",
        message: `the PSP answered ${what} with ${status} ${reason}`
      })
    }
  })

  it("a 1xx or a 3xx is no answer the call can use: unavailable", () => {
    for (const status of [100, 101, 301, 302, 304, 307]) {
      expect(verdictOf(status, "")._tag).toBe("Unavailable")
    }
  })

  it("an OAuth2 error is described, though it is no problem details (the token endpoint's answers)", () => {
    const oauth = JSON.stringify({ error: "invalid_client", error_description: "unknown client" })
    expect(verdictOf(401, oauth)).toEqual({
      _tag: "Unavailable",
      message: `the PSP answered ${what} with 401 invalid_client: unknown client`
    })
    expect(verdictOf(400, oauth)._tag).toBe("Unavailable")
  })
})
