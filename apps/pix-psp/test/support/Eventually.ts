// Waiting on a condition with a deadline, instead of a fixed sleep that races the server.

/** Polls `find` until it gives something other than undefined, or fails after `timeoutMs` naming `what`. */
export const eventually = async <A>(
  what: string,
  find: () => A | undefined | Promise<A | undefined>,
  timeoutMs = 10_000
): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = await find()
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error(`gave up after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
