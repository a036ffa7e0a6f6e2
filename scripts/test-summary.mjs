// Prints the plain total of vitest JSON reports as "N passed, N failed" (what CI reads as its last line).
// A report that is missing counts as one failure: its run never got as far as writing it.
import { existsSync, readFileSync } from "node:fs"

let passed = 0
let failed = 0
let skipped = 0
for (const path of process.argv.slice(2)) {
  if (!existsSync(path)) {
    console.log(`${path}: the test run produced no report`)
    failed += 1
    continue
  }
  const report = JSON.parse(readFileSync(path, "utf8"))
  passed += report.numPassedTests
  // A file that fails to load has no failed test but is a failed file: count it as one failure.
  const unloaded = report.testResults.filter(
    (file) => file.status === "failed" && !file.assertionResults.some((test) => test.status === "failed")
  ).length
  failed += report.numFailedTests + unloaded + (report.numRuntimeErrors ?? 0)
  skipped += report.numPendingTests + report.numTodoTests
}
if (skipped > 0) console.log(`${skipped} skipped`)
console.log(`${passed} passed, ${failed} failed`)
process.exitCode = failed > 0 ? 1 : 0
