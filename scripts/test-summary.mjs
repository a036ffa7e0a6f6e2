// Prints the plain total of a vitest JSON report as "N passed, N failed" (what CI reads as its last line).
import { readFileSync } from "node:fs"

const report = JSON.parse(readFileSync(process.argv[2], "utf8"))
// A file that fails to load has no failed test but is a failed suite: count it too.
const failed = Math.max(report.numFailedTests, report.numFailedTestSuites) + (report.numRuntimeErrors ?? 0)
const skipped = report.numPendingTests + report.numTodoTests
console.log(`${report.numPassedTests} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`)
