export * as SandboxPixProvider from "./SandboxPixProvider.js"
