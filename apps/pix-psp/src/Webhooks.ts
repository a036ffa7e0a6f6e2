// The webhooks the client set, one per pix key (`PUT /webhook/{chave}`): where the PSP posts the pix it receives.
import { Clock, Context, Effect, Layer, Option } from "effect"

export interface Webhook {
  readonly chave: string
  readonly webhookUrl: string
  readonly criacao: number
}

export class Webhooks extends Context.Service<
  Webhooks,
  {
    readonly set: (chave: string, webhookUrl: string) => Effect.Effect<Webhook>
    readonly find: (chave: string) => Effect.Effect<Option.Option<Webhook>>
    /** Whether there was one to remove. */
    readonly remove: (chave: string) => Effect.Effect<boolean>
  }
>()("@fatura/pix-psp/Webhooks") {
  static readonly layer = Layer.sync(Webhooks, () => {
    const webhooks = new Map<string, Webhook>()
    return Webhooks.of({
      set: (chave, webhookUrl) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const webhook = { chave, webhookUrl, criacao: now }
          webhooks.set(chave, webhook)
          return webhook
        }),
      find: (chave) => Effect.sync(() => Option.fromNullishOr(webhooks.get(chave))),
      remove: (chave) => Effect.sync(() => webhooks.delete(chave))
    })
  })
}
