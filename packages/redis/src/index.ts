export * as RedisTokenBuckets from "./RedisTokenBuckets.js"
