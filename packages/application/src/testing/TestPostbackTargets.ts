// A stand-in for the check of where postbacks may go: any http or https URL may, and its host is the one address
// to connect to. Nothing is resolved; live-mode refusals of private addresses are the network adapter's to test.
import { Effect, Layer } from "effect"
import { PostbackTargetRefused, PostbackTargets } from "../postbacks/PostbackTargets.js"

export const layer = Layer.succeed(
  PostbackTargets,
  PostbackTargets.of({
    check: (url) => {
      const parsed = URL.parse(url)
      return parsed !== null && (parsed.protocol === "http:" || parsed.protocol === "https:")
        ? Effect.succeed([parsed.hostname])
        : Effect.fail(new PostbackTargetRefused({ reason: "must be an http or https URL" }))
    }
  })
)
