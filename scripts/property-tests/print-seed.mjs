// `globalSetup` of every vitest project with a property: prints, once per run of the project, the seed its properties
// run on and the one command that runs them again the same way.
import { basename } from "node:path"
import { runsFactor, seed } from "./settings.mjs"

export default function printSeed(project) {
  const rootConfig = project.vitest.config.config
  const config =
    rootConfig === undefined || basename(rootConfig) === "vitest.config.ts" ? "" : ` --config ${basename(rootConfig)}`
  console.info(
    `fast-check [${project.name}]: seed ${seed}, runs ×${runsFactor}. Again: ` +
      `FC_SEED=${seed} FC_RUNS_FACTOR=${runsFactor} npx -y pnpm@10.34.9 exec vitest run${config} --project ${project.name}`
  )
}
