// Every answer an HTTP test of the server gets, held to the OpenAPI document the server serves (the check itself is
// the api package's test support, shared with the client's tests). Compiled once per test process.
import { ApiDocs } from "@fatura/http"
import * as ContractCheck from "../../../../packages/api/test/support/ContractCheck.js"

export type { Answer } from "../../../../packages/api/test/support/ContractCheck.js"

/** The same document for every base URL but the `servers` it names, which no answer is checked against. */
export const { check, checkedFetch } = ContractCheck.make(ApiDocs.document("http://fatura.test"))
