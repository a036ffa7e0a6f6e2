import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "server",
    include: ["test/**/*.test.ts"],
    // Each file starts a server over a fresh database (PGlite takes a few seconds to boot).
    testTimeout: 30_000,
    hookTimeout: 60_000
  }
})
