import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "pix-api",
    include: ["test/**/*.test.ts"],
    // Each file starts a local PSP of its own (apps/pix-psp) and waits, in real time, for tokens to expire and
    // refunds to settle.
    testTimeout: 30_000,
    hookTimeout: 60_000
  }
})
