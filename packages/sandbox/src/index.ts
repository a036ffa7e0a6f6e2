export * as SandboxBoletoIssuer from "./SandboxBoletoIssuer.js"
export * as SandboxCardAcquirer from "./SandboxCardAcquirer.js"
export * as SandboxPayoutRail from "./SandboxPayoutRail.js"
export * as SandboxPixProvider from "./SandboxPixProvider.js"
