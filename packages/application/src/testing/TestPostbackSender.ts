// A stand-in postback sender: sends nothing, keeps every request it was given, in order, and answers with the
// status the test chooses (200 unless told), or with no answer at all.
import { Context, Effect, Layer, Ref } from "effect"
import { type PostbackRequest, PostbackSender, PostbackSendFailed } from "../postbacks/PostbackSender.js"

/** The postbacks sent so far, oldest first. */
export class SentPostbacks extends Context.Service<
  SentPostbacks,
  { readonly all: Effect.Effect<ReadonlyArray<PostbackRequest>> }
>()("@fatura/application/testing/SentPostbacks") {}

/** What the receiver does with a postback: answers with a status, or is not there (a refused connection). */
export type Answer = number | "no answer"

/** A sender whose receiver answers `answer(request)`; the requests are kept in `SentPostbacks`. */
export const answering = (answer: (request: PostbackRequest) => Answer) =>
  Layer.effectContext(
    Effect.gen(function* () {
      const sent = yield* Ref.make<ReadonlyArray<PostbackRequest>>([])
      const sender = PostbackSender.of({
        send: (request) =>
          Effect.gen(function* () {
            yield* Ref.update(sent, (all) => [...all, request])
            const status = answer(request)
            if (status === "no answer") {
              return yield* new PostbackSendFailed({ error: "connection refused", durationMs: 0 })
            }
            return { statusCode: status, durationMs: 0 }
          })
      })
      return Context.make(PostbackSender, sender).pipe(
        Context.add(SentPostbacks, SentPostbacks.of({ all: Ref.get(sent) }))
      )
    })
  )

/** A receiver that takes every postback (200). */
export const layer = answering(() => 200)
