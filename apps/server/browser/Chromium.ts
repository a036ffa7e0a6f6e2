// Headless Chromium for the browser suite: Debian's package (or CHROMIUM_PATH), driven by playwright-core, with
// the flags that keep it off the network on a machine without outside access.
import { existsSync } from "node:fs"
import { type Browser, chromium } from "playwright-core"

export const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"

export const launch = (): Promise<Browser> => {
  if (!existsSync(executablePath)) {
    throw new Error(
      `The browser suite needs Chromium at ${executablePath}: install Debian's package (apt-get install chromium) ` +
        "or point CHROMIUM_PATH at a Chromium binary."
    )
  }
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync"
    ]
  })
}
