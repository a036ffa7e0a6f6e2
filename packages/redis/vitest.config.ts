import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "redis",
    include: ["test/**/*.test.ts"],
    // Each suite starts a Redis server of its own.
    testTimeout: 30_000,
    hookTimeout: 30_000
  }
})
