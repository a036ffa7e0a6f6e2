// Port: sends one signed postback over HTTP (SPEC 8.2) and tells what came back.
import { Context, type Effect, Schema } from "effect"

export interface PostbackRequest {
  readonly url: string
  /** When set, the only addresses the sender may connect to: those the target check approved. */
  readonly addresses: ReadonlyArray<string> | null
  readonly eventId: string
  readonly eventType: string
  readonly body: string
  readonly secrets: ReadonlyArray<string>
  /** Unix seconds, the `t` of the signature. */
  readonly timestamp: number
}

/** No answer at all: refused connection, timeout, reset. */
export class PostbackSendFailed extends Schema.TaggedError<PostbackSendFailed>()("PostbackSendFailed", {
  error: Schema.String,
  durationMs: Schema.Number
}) {}

export class PostbackSender extends Context.Service<
  PostbackSender,
  {
    readonly send: (
      request: PostbackRequest
    ) => Effect.Effect<{ readonly statusCode: number; readonly durationMs: number }, PostbackSendFailed>
  }
>()("@fatura/application/PostbackSender") {}
