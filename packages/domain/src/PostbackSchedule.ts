// When a failed postback is tried again (SPEC 8.2): about 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h, 24 h
// after each failure, 9 attempts in all (≈ 3 days), each delay moved by up to ±10 % so retries spread out.

export const delaysSeconds: ReadonlyArray<number> = [60, 300, 1_800, 7_200, 21_600, 43_200, 86_400, 86_400]

export const jitterFraction = 0.1

/**
 * Seconds to wait after failed attempt number `attempt` (1-based), or undefined when it was the last one.
 * `jitter` in [-1, 1] picks where in the ±10 % band the delay lands (the caller draws it).
 */
export const delayAfter = (attempt: number, jitter: number): number | undefined => {
  const base = delaysSeconds[attempt - 1]
  if (base === undefined) return undefined
  const clamped = Math.max(-1, Math.min(1, jitter))
  return Math.round(base * (1 + clamped * jitterFraction))
}
