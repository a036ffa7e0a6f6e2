import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "persistence",
    include: ["test/**/*.test.ts"],
    // Each suite boots its own database: PGlite takes a few seconds to start, Postgres to create and migrate one.
    testTimeout: 30_000,
    hookTimeout: 60_000
  }
})
