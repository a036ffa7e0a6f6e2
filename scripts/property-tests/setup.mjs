// `setupFiles` of every vitest project with a property: each test file's fast-check runs on the seed and run count of
// settings.mjs. A property that sets no `numRuns` gets `defaultRuns`; one that does scales it with `propertyRuns`.
import * as fc from "fast-check"
import { defaultRuns, seed } from "./settings.mjs"

fc.configureGlobal({ seed, numRuns: defaultRuns })
