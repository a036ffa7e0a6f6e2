// The migrated image the test run's global setup wrote (`migratedImage.setup.ts`), read once per test file, for a
// fresh embedded database to start from. Undefined when the run did not make one (a package's tests run from its own
// directory, or a config without that setup): the database then initialises and migrates itself.
import { readFile } from "node:fs/promises"
import { inject } from "vitest"

let image: Promise<Blob> | undefined

export const migratedImage = (): Promise<Blob | undefined> => {
  const file = inject("migratedImage")
  if (file === undefined) return Promise.resolve(undefined)
  image ??= readFile(file).then((bytes) => new Blob([bytes]))
  return image
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The file holding the migrated image, when the run was started from the repository's root config. */
    readonly migratedImage: string
  }
}
