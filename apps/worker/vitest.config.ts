import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "worker",
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    // Longer than a worker may take to start (test/support/WorkerProcess.ts), so that a slow start fails with what
    // the worker printed rather than with the hook's timeout.
    hookTimeout: 150_000
  }
})
