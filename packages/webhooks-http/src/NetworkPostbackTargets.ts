// The PostbackTargets port over the system resolver: the check of PostbackTargetCheck, in the port's words,
// bounded in time.
import { PostbackTargetRefused, PostbackTargets } from "@fatura/application"
import { Effect, Layer } from "effect"
import * as PostbackTargetCheck from "./PostbackTargetCheck.js"

export const layer = Layer.succeed(
  PostbackTargets,
  PostbackTargets.of({
    check: (url) =>
      PostbackTargetCheck.check(url).pipe(
        Effect.map((target) => target.addresses),
        Effect.mapError((rejected) => new PostbackTargetRefused({ reason: rejected.reason })),
        // A resolver that does not answer must not hold up a request or a worker round.
        Effect.timeoutOrElse({
          duration: "5 seconds",
          orElse: () => Effect.fail(new PostbackTargetRefused({ reason: "could not be resolved in time" }))
        })
      )
  })
)
