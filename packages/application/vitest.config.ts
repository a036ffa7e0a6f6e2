import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "application",
    include: ["test/**/*.test.ts"],
    // Its tests keep no state between files (values, in-memory ports and servers made per test), so the files of a
    // worker share one import of effect and the package instead of importing them anew each: most of a file's time.
    isolate: false,
    // fast-check on the seed and run count of FC_SEED and FC_RUNS_FACTOR (README: Property tests).
    globalSetup: ["../../scripts/property-tests/print-seed.mjs"],
    setupFiles: ["../../scripts/property-tests/setup.mjs"]
  }
})
