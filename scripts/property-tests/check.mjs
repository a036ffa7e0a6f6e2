// Part of `pnpm lint`: no property test escapes the seed and run count of settings.mjs. Every file that imports
// fast-check must run in a vitest project whose config loads setup.mjs (and print-seed.mjs, which prints the seed),
// pass no `seed` of its own, not reconfigure fast-check, and scale any `numRuns` it sets with `propertyRuns`.
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { propertyTestFiles, root } from "./files.mjs"

const violations = []
for (const { file, config } of propertyTestFiles()) {
  const text = readFileSync(join(root, file), "utf8")
  if (config === undefined) {
    violations.push(`${file} imports fast-check but no vitest project config includes it`)
  } else {
    const configText = readFileSync(join(root, config), "utf8")
    for (const module of ["scripts/property-tests/setup.mjs", "scripts/property-tests/print-seed.mjs"]) {
      if (!configText.includes(module))
        violations.push(`${config} runs ${file}, which uses fast-check, without ${module}`)
    }
  }
  for (const match of text.matchAll(/\bseed\s*:/g)) {
    violations.push(
      `${file}:${lineOf(text, match.index)} sets a seed of its own: FC_SEED decides it (README: Property tests)`
    )
  }
  for (const match of text.matchAll(/\bconfigureGlobal\s*\(/g)) {
    violations.push(
      `${file}:${lineOf(text, match.index)} reconfigures fast-check: scripts/property-tests/setup.mjs does`
    )
  }
  for (const match of text.matchAll(/\bnumRuns\s*:(?!\s*propertyRuns\()/g)) {
    violations.push(
      `${file}:${lineOf(text, match.index)} sets numRuns without propertyRuns(…), so FC_RUNS_FACTOR misses it`
    )
  }
}

function lineOf(text, index) {
  return text.slice(0, index).split("\n").length
}

if (violations.length > 0) {
  console.error(violations.join("\n"))
  process.exit(1)
}
