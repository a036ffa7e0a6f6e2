// The seed and the run count of every fast-check property, from the environment, so that a run passes or fails the
// same way every time it is repeated with the same values:
// - FC_SEED: a 32-bit integer (what fast-check prints as `seed` in a failure); unset, the fixed `defaultSeed`.
// - FC_RUNS_FACTOR: a positive integer multiplying every property's runs; unset, 1. `pnpm test:fuzz` uses 10.

export const defaultSeed = 42

const integerFrom = (name, text, min, max) => {
  const value = Number(text)
  if (!/^-?\d+$/.test(text) || value < min || value > max) {
    throw new Error(`${name}=${text}: expected an integer from ${min} to ${max}`)
  }
  return value
}

const given = (name) => {
  const text = process.env[name]?.trim()
  return text === undefined || text === "" ? undefined : text
}

const seedText = given("FC_SEED")
const factorText = given("FC_RUNS_FACTOR")

// fast-check reduces a seed to a signed 32-bit integer and prints that one; refusing others keeps both the same.
export const seed = seedText === undefined ? defaultSeed : integerFrom("FC_SEED", seedText, -(2 ** 31), 2 ** 31 - 1)

export const runsFactor = factorText === undefined ? 1 : integerFrom("FC_RUNS_FACTOR", factorText, 1, 1000)

/** A property's number of runs: `runs` in CI, `runs` times FC_RUNS_FACTOR when exploring. */
export const propertyRuns = (runs) => runs * runsFactor

/** fast-check's own default of 100 runs, scaled like every other property's. */
export const defaultRuns = propertyRuns(100)
