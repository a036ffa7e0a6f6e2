// Runs the README's Merchant example as a merchant runs it, in its own process configured by its environment, and
// checks what it printed; the release test runs the very same file from a project that installed the packages.
import { spawn } from "node:child_process"
import { expect } from "@effect/vitest"
import { freePort } from "./FreePort.js"

/** A server the example can reach: in this process (./FaturaServer.ts) or the release's (release/support). */
export interface MerchantServer {
  readonly url: string
  readonly secretKey: string
  readonly webhookSecret: string
}

export interface MerchantRun {
  readonly exitCode: number | null
  readonly stdout: string
  readonly stderr: string
}

/** `node <file>` (Node strips the types) with the server's URL, key and webhook secret, to its end. */
export const runMerchant = async (file: string, server: MerchantServer, cwd?: string): Promise<MerchantRun> => {
  const child = spawn(process.execPath, [file], {
    cwd,
    env: {
      ...process.env,
      FATURA_URL: server.url,
      FATURA_KEY: server.secretKey,
      FATURA_WEBHOOK_SECRET: server.webhookSecret,
      MERCHANT_PORT: String(await freePort())
    }
  })
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString()
  })
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const exitCode = await new Promise<number | null>((resolve) => child.once("exit", resolve))
  return { exitCode, stdout, stderr }
}

/** It created, found and was told of the payment of its pix invoice, and handled the unknown and the invalid one. */
export const expectMerchantSucceeded = ({ exitCode, stdout, stderr }: MerchantRun) => {
  expect(exitCode, `${stdout}\n${stderr}`).toBe(0)
  const secureId = /created invoice ([0-9a-f-]{36}): pending, 4990 cents/.exec(stdout)?.[1]
  expect(secureId, stdout).toBeDefined()
  expect(stdout).toContain(`found invoice ${secureId}: pending`)
  expect(stdout).toContain("unknown invoice: no such invoice (not_found)")
  expect(stdout).toContain("invalid invoice: refused before sending (SchemaError)")
  expect(stdout).toMatch(new RegExp(`verified invoice\\.paid evt_[0-9a-f-]{36}: invoice ${secureId} is paid`))
  expect(stdout).toMatch(new RegExp(`paid: ${secureId} at \\d{4}-\\d\\d-\\d\\dT`))
  expect(stdout).not.toContain("refused a postback")
}
