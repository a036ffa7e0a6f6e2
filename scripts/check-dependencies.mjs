// Enforces the dependency rule of ARCHITECTURE.md: a package imports only what its row allows.
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"

// "node:" stands for every Node built-in; null means "anything" (composition roots).
const allowed = {
  "packages/domain": ["effect", "@brazilian-utils/brazilian-utils", "credit-card-type"],
  "packages/sql-pglite": ["effect", "node:", "@electric-sql/pglite"],
  "packages/api": ["effect", "@fatura/domain"],
  "packages/application": ["effect", "@fatura/domain"],
  "packages/persistence": [
    "effect",
    "node:",
    "@fatura/domain",
    "@fatura/application",
    "@fatura/sql-pglite",
    "@effect/sql-pg",
    "@electric-sql/pglite"
  ],
  "packages/sandbox": ["effect", "node:", "@fatura/domain", "@fatura/application"],
  "packages/cnab240": ["effect", "node:", "@fatura/domain", "@fatura/application", "ssh2-sftp-client"],
  "packages/pix-api": [
    "effect",
    "node:",
    "@effect/platform-node",
    "@fatura/domain",
    "@fatura/application",
    "@fatura/api"
  ],
  "packages/webhooks-http": ["effect", "node:", "@fatura/domain", "@fatura/application", "@fatura/api"],
  "packages/redis": ["effect", "ioredis"],
  "packages/http": [
    "effect",
    "node:",
    "@fatura/domain",
    "@fatura/application",
    "@fatura/api",
    "bwip-js",
    "pdf-lib",
    "qrcode"
  ],
  "apps/server": null,
  "apps/worker": [
    "effect",
    "node:",
    "@effect/platform-node",
    "@fatura/domain",
    "@fatura/application",
    "@fatura/persistence",
    "@fatura/sandbox",
    "@fatura/pix-api",
    "@fatura/webhooks-http",
    "@fatura/cnab240"
  ],
  "apps/example": ["effect", "node:", "@fatura/api"],
  "apps/pix-psp": ["effect", "node:", "@effect/platform-node", "@peculiar/x509", "reflect-metadata"],
  "apps/bank": ["effect", "node:", "ssh2"]
}

const root = new URL("..", import.meta.url).pathname
const importPattern = /(?:^|\s)(?:import|export)\s[^"']*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm

const packageOf = (specifier) => {
  if (specifier.startsWith(".")) return undefined
  if (specifier.startsWith("node:")) return "node:"
  const parts = specifier.split("/")
  return specifier.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]
}

const sourceFiles = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return path.endsWith(".ts") ? [path] : []
  })

const violations = []
for (const [folder, allow] of Object.entries(allowed)) {
  if (allow === null) continue
  const src = join(root, folder, "src")
  let files
  try {
    files = sourceFiles(src)
  } catch {
    continue
  }
  for (const file of files) {
    const text = readFileSync(file, "utf8")
    for (const match of text.matchAll(importPattern)) {
      const specifier = match[1] ?? match[2]
      const pkg = packageOf(specifier)
      if (pkg !== undefined && !allow.includes(pkg)) {
        violations.push(`${relative(root, file)} imports ${specifier}, which ${folder} may not import`)
      }
    }
  }
}

if (violations.length > 0) {
  console.error(violations.join("\n"))
  process.exit(1)
}
console.log("dependency rule: ok")
