// Types of settings.mjs, for the test files that import it.
export declare const defaultSeed: number
export declare const seed: number
export declare const runsFactor: number
export declare const propertyRuns: (runs: number) => number
export declare const defaultRuns: number
