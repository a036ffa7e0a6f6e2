export * as FailureResponses from "./FailureResponses.js"
export * as FaturaHttp from "./FaturaHttp.js"
export * as NodeServer from "./NodeServer.js"
export * as RequestLimits from "./RequestLimits.js"
