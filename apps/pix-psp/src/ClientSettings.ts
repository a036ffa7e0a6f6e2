// The settings a client of the PSP needs, printed on start as shell `export` lines: under the names Fatura reads
// (FATURA_PIX_*), whatever the port turned out to be.
import type { State } from "./PspState.js"

export const clientSettings = (
  baseUrl: string,
  state: State
): ReadonlyArray<readonly [name: string, value: string]> => [
  ["FATURA_PIX_PROVIDER", "bcb"],
  ["FATURA_PIX_API_URL", baseUrl],
  ["FATURA_PIX_OAUTH_URL", `${baseUrl}/oauth/token`],
  ["FATURA_PIX_CLIENT_ID", state.credentials.clientId],
  ["FATURA_PIX_CLIENT_SECRET", state.credentials.clientSecret],
  ["FATURA_PIX_CERT", state.paths.client],
  ["FATURA_PIX_CERT_KEY", state.paths.clientKey],
  ["FATURA_PIX_CA", state.paths.ca],
  ["FATURA_PIX_KEY", state.credentials.pixKey]
]

/** A value as a POSIX shell word: as it is when it is plain, in single quotes otherwise. */
const shellWord = (value: string) =>
  /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`

export const exportLines = (settings: ReadonlyArray<readonly [string, string]>): ReadonlyArray<string> =>
  settings.map(([name, value]) => `export ${name}=${shellWord(value)}`)
