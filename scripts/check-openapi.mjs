// The OpenAPI document that the server serves at /openapi.json, as the built packages make it, checked by two
// independent validators of the OpenAPI 3.1 schema and by Redocly's `recommended` rules (redocly.yaml): a document
// that outside tools cannot read, or that reads wrong, fails the lint. Needs the packages built; no network.
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import SwaggerParser from "@apidevtools/swagger-parser"
import { Validator } from "@seriousme/openapi-schema-validator"

const root = fileURLToPath(new URL("..", import.meta.url))
const redoclyConfig = join(root, "redocly.yaml")

// The document of a server at its default address (PUBLIC_BASE_URL unset, PORT 3000).
const { ApiDocs } = await import(join(root, "packages/http/dist/index.js"))
const document = ApiDocs.document("http://localhost:3000")

const failures = []

const schemaValidator = new Validator()
const checked = await schemaValidator.validate(structuredClone(document))
if (!checked.valid) {
  failures.push(`@seriousme/openapi-schema-validator:\n${JSON.stringify(checked.errors, null, 2)}`)
}

try {
  await SwaggerParser.validate(structuredClone(document))
} catch (error) {
  failures.push(`@apidevtools/swagger-parser: ${error instanceof Error ? error.message : String(error)}`)
}

const directory = mkdtempSync(join(tmpdir(), "fatura-openapi-"))
try {
  const file = join(directory, "openapi.json")
  writeFileSync(file, JSON.stringify(document, null, 2))
  const redocly = (format) =>
    spawnSync(join(root, "node_modules/.bin/redocly"), ["lint", file, "--config", redoclyConfig, "--format", format], {
      encoding: "utf8",
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" }
    })
  // Warnings count too: redocly exits 0 on them, so its totals decide.
  const { totals } = JSON.parse(redocly("json").stdout)
  if (totals.errors + totals.warnings > 0) {
    const report = redocly("stylish")
    failures.push(
      `redocly lint (${totals.errors} errors, ${totals.warnings} warnings):\n${report.stdout}${report.stderr}`
    )
  }
} finally {
  rmSync(directory, { recursive: true, force: true })
}

if (failures.length > 0) {
  console.error(`The OpenAPI document is not valid:\n\n${failures.join("\n\n")}`)
  process.exit(1)
}
console.log(
  `OpenAPI document: ${Object.keys(document.paths).length} paths, valid for both validators and redocly recommended`
)
