import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "sql-pglite",
    include: ["test/**/*.test.ts"],
    // Each suite boots its own WASM Postgres, which takes a few seconds on a cold start.
    testTimeout: 30_000,
    hookTimeout: 30_000
  }
})
