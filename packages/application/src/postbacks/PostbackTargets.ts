// Port: checks where a postback may go (SPEC 8.4), resolving the host; and whether private targets are allowed.
import type { Invoice } from "@fatura/domain"
import { Context, type Effect, Schema } from "effect"

export class PostbackTargetRefused extends Schema.TaggedError<PostbackTargetRefused>()("PostbackTargetRefused", {
  reason: Schema.String
}) {}

export class PostbackTargets extends Context.Service<
  PostbackTargets,
  {
    /** The addresses the URL's host is, all of them public; else why not. */
    readonly check: (url: string) => Effect.Effect<ReadonlyArray<string>, PostbackTargetRefused>
  }
>()("@fatura/application/PostbackTargets") {}

/**
 * Whether test-mode postbacks may go to private addresses (SPEC 8.4: yes, unless
 * FATURA_POSTBACK_ALLOW_PRIVATE=false). Live mode never may.
 */
/**
 * Whether a postback of `mode` may go to a private address, so that its URL goes unchecked, at creation and at send:
 * in test mode when `allowedInTest`, never in live mode (SPEC 8.4).
 */
export const privateTargetsAllowed = (mode: Invoice.Mode, allowedInTest: boolean): boolean =>
  mode === "test" && allowedInTest

export const AllowPrivatePostbacksInTest = Context.Reference<boolean>(
  "@fatura/application/AllowPrivatePostbacksInTest",
  { defaultValue: () => true }
)
