import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "example",
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    // Longer than the server may take to start (test/support/FaturaProcess.ts), so that a slow start fails with what
    // it printed rather than with the hook's timeout.
    hookTimeout: 150_000
  }
})
