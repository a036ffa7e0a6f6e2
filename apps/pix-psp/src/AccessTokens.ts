// OAuth2 access tokens of the client-credentials grant: opaque bearer tokens, each with its scopes and its end,
// kept in memory (a restart asks clients for new ones, as a real PSP's rotation would).
import { Clock, Context, Effect, Layer, Option } from "effect"
import * as Identifiers from "./Identifiers.js"
import { PspSettings } from "./PspSettings.js"

/** The scopes of the API Pix this PSP grants: those of the products it offers. */
export const offeredScopes = [
  "cob.write",
  "cob.read",
  "cobv.write",
  "cobv.read",
  "pix.write",
  "pix.read",
  "webhook.write",
  "webhook.read"
] as const
export type ApiScope = (typeof offeredScopes)[number]

export const isOfferedScope = (scope: string): scope is ApiScope =>
  (offeredScopes as ReadonlyArray<string>).includes(scope)

export interface IssuedToken {
  readonly accessToken: string
  readonly expiresIn: number
  readonly scopes: ReadonlyArray<ApiScope>
}

export class AccessTokens extends Context.Service<
  AccessTokens,
  {
    readonly issue: (scopes: ReadonlyArray<ApiScope>) => Effect.Effect<IssuedToken>
    /** The scopes of a token still valid; none for an unknown or expired one. */
    readonly scopesOf: (accessToken: string) => Effect.Effect<Option.Option<ReadonlyArray<ApiScope>>>
  }
>()("@fatura/pix-psp/AccessTokens") {
  static readonly layer = Layer.effect(
    AccessTokens,
    Effect.gen(function* () {
      const { tokenTtlSeconds } = yield* PspSettings
      const tokens = new Map<string, { readonly scopes: ReadonlyArray<ApiScope>; readonly endsAt: number }>()
      const forgetExpired = (now: number) => {
        for (const [token, { endsAt }] of tokens) if (endsAt <= now) tokens.delete(token)
      }
      return AccessTokens.of({
        issue: (scopes) =>
          Effect.map(Clock.currentTimeMillis, (now) => {
            forgetExpired(now)
            const accessToken = Identifiers.secret(32)
            tokens.set(accessToken, { scopes, endsAt: now + tokenTtlSeconds * 1000 })
            return { accessToken, expiresIn: tokenTtlSeconds, scopes }
          }),
        scopesOf: (accessToken) =>
          Effect.map(Clock.currentTimeMillis, (now) => {
            const token = tokens.get(accessToken)
            return token !== undefined && token.endsAt > now ? Option.some(token.scopes) : Option.none()
          })
      })
    })
  )
}
