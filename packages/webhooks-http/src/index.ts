export * as HttpPostbackSender from "./HttpPostbackSender.js"
export * as NetworkPostbackTargets from "./NetworkPostbackTargets.js"
export * as PostbackTargetCheck from "./PostbackTargetCheck.js"
