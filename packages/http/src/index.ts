export * as FailureResponses from "./FailureResponses.js"
export * as FaturaHttp from "./FaturaHttp.js"
export * as Idempotency from "./Idempotency.js"
export * as ResponseEnvelope from "./ResponseEnvelope.js"
