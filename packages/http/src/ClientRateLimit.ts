// Rate limits (SPEC 4.7, 10): a token bucket per client — a client address on the public endpoints, an API key
// elsewhere — in memory, answering how long to wait when it is empty.

export interface Limit {
  /** Requests allowed at once. */
  readonly burst: number
  /** Requests a second the bucket refills with. */
  readonly perSecond: number
}

export const publicLimit: Limit = { burst: 60, perSecond: 10 }

/** Buckets untouched for this long are full again, so forgetting them changes nothing. */
const idleMs = 60_000

export type Decision = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number }

export const make = (limit: Limit) => {
  const buckets = new Map<string, { tokens: number; updatedAt: number }>()
  let lastSweep = 0

  return (client: string, nowMs: number): Decision => {
    if (nowMs - lastSweep > idleMs) {
      for (const [key, bucket] of buckets) if (nowMs - bucket.updatedAt > idleMs) buckets.delete(key)
      lastSweep = nowMs
    }
    const bucket = buckets.get(client) ?? { tokens: limit.burst, updatedAt: nowMs }
    bucket.tokens = Math.min(limit.burst, bucket.tokens + ((nowMs - bucket.updatedAt) / 1000) * limit.perSecond)
    bucket.updatedAt = nowMs
    buckets.set(client, bucket)
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return { allowed: true }
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / limit.perSecond)) }
  }
}
