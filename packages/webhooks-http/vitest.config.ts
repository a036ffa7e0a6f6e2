import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "webhooks-http",
    include: ["test/**/*.test.ts"],
    // Its tests keep no state between files (loopback receivers and resolvers made per file), so the files of a
    // worker share one import of effect and the package instead of importing them anew each: most of a file's time.
    isolate: false
  }
})
