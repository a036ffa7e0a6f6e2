export * as SandboxBoletoIssuer from "./SandboxBoletoIssuer.js"
export * as SandboxCardAcquirer from "./SandboxCardAcquirer.js"
export * as SandboxPixProvider from "./SandboxPixProvider.js"
