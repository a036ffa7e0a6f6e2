// The PostbackTargets port over the system resolver: the check of PostbackTargetCheck, in the port's words.
import { PostbackTargetRefused, PostbackTargets } from "@fatura/application"
import { Effect, Layer } from "effect"
import * as PostbackTargetCheck from "./PostbackTargetCheck.js"

export const layer = Layer.succeed(
  PostbackTargets,
  PostbackTargets.of({
    check: (url) =>
      PostbackTargetCheck.check(url).pipe(
        Effect.map((target) => target.addresses),
        Effect.mapError((rejected) => new PostbackTargetRefused({ reason: rejected.reason }))
      )
  })
)
