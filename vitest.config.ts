import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*"],
    // Three files at a time on any machine: most of a file's time is spent waiting on a database or a child process
    // (on two cores the default is one file at a time, and the suite took twice as long).
    maxWorkers: 3
  }
})
