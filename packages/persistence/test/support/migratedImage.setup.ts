// The test run's global setup (the root vitest config's `globalSetup`, run once per run): an empty, migrated embedded
// database's image, written to a file that every suite's fresh PGlite database starts from (`migratedImage.ts`)
// instead of initialising a cluster and migrating it, which costs seconds of CPU per database.
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import type { TestProject } from "vitest/node"
import { Database } from "../../src/index.js"

export default async function setup(project: TestProject) {
  const directory = await mkdtemp(join(tmpdir(), "fatura-migrated-image-"))
  const file = join(directory, "migrated.tar")
  const image = await Effect.runPromise(Database.image)
  await writeFile(file, new Uint8Array(await image.arrayBuffer()))
  project.provide("migratedImage", file)
  return () => rm(directory, { recursive: true, force: true })
}
