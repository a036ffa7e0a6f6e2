export * as PgliteClient from "./PgliteClient.js"
export * as PgliteMigrator from "./PgliteMigrator.js"
