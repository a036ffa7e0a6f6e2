import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "pix-psp",
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Every file starts a PSP of its own and shares nothing with the others: one worker reused across files saves
    // loading effect, the PSP and the API Pix document again for each, about half the suite's time.
    isolate: false
  }
})
