// No test here reaches the network: only IP literals, `localhost` (from /etc/hosts), `.invalid` names (which
// RFC 6761 keeps from ever resolving) and resolvers written in the test.
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { PostbackTargetCheck } from "../src/index.js"

const reasonOf = (url: string, check = PostbackTargetCheck.check) =>
  check(url).pipe(
    Effect.match({
      onSuccess: ({ addresses }) => `accepted ${addresses.join(",")}`,
      onFailure: (error) => error.reason
    })
  )

// A resolver that must not be asked: IP literals are classified as written.
const noResolver: PostbackTargetCheck.Resolve = (host) => Promise.reject(new Error(`resolved ${host}`))

const fixedResolver =
  (answers: Record<string, ReadonlyArray<string>>): PostbackTargetCheck.Resolve =>
  async (host) => {
    const addresses = answers[host]
    if (addresses === undefined) throw Object.assign(new Error(`no ${host}`), { code: "ENOTFOUND" })
    return addresses
  }

describe("PostbackTargetCheck", () => {
  it.effect("refuses IP literals that are not public, saying what they are", () =>
    Effect.gen(function* () {
      const literal = PostbackTargetCheck.make(noResolver)
      expect(yield* reasonOf("http://127.0.0.1/", literal)).toBe("is a loopback address (127.0.0.1)")
      expect(yield* reasonOf("http://[::1]/", literal)).toBe("is a loopback address (::1)")
      expect(yield* reasonOf("http://169.254.169.254/latest/meta-data", literal)).toBe(
        "is a link-local address (169.254.169.254)"
      )
      expect(yield* reasonOf("http://10.0.0.1/", literal)).toBe("is a private address (10.0.0.1)")
      expect(yield* reasonOf("http://192.168.1.1/", literal)).toBe("is a private address (192.168.1.1)")
      expect(yield* reasonOf("http://[fe80::1]/", literal)).toBe("is a link-local address (fe80::1)")
      expect(yield* reasonOf("http://[::ffff:127.0.0.1]/", literal)).toBe("is a loopback address (::ffff:7f00:1)")
      expect(yield* reasonOf("http://0.0.0.0:8080/", literal)).toBe("is an unspecified address (0.0.0.0)")
      expect(yield* reasonOf("http://224.0.0.1/", literal)).toBe("is a multicast address (224.0.0.1)")
    })
  )

  it.effect("reads IPv4 hosts in every form, as the sender would", () =>
    Effect.gen(function* () {
      const literal = PostbackTargetCheck.make(noResolver)
      for (const host of ["2130706433", "127.1", "0x7f.0.0.1", "017700000001"]) {
        expect(yield* reasonOf(`http://${host}/`, literal)).toBe("is a loopback address (127.0.0.1)")
      }
      // The same through the real check: none of these may reach the resolver.
      expect(yield* reasonOf("http://2130706433/")).toBe("is a loopback address (127.0.0.1)")
    })
  )

  it.effect("refuses URLs that are not http or https before any lookup", () =>
    Effect.gen(function* () {
      const literal = PostbackTargetCheck.make(noResolver)
      expect(yield* reasonOf("ftp://example.com/", literal)).toBe("only http and https URLs")
      expect(yield* reasonOf("example.com/postbacks", literal)).toBe("not an absolute URL")
      expect(yield* reasonOf("https://user:secret@example.com/", literal)).toBe(
        "credentials are not allowed in the URL"
      )
    })
  )

  it.effect("accepts a public IP literal without resolving anything", () =>
    Effect.gen(function* () {
      const checked = yield* PostbackTargetCheck.make(noResolver)("http://93.184.215.14/postbacks?x=1")
      expect(checked.addresses).toEqual(["93.184.215.14"])
      expect(checked.url.href).toBe("http://93.184.215.14/postbacks?x=1")
      const ipv6 = yield* PostbackTargetCheck.check("https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]:8443/")
      expect(ipv6.addresses).toEqual(["2606:2800:21f:cb07:6820:80da:af6b:8b2c"])
      expect(ipv6.url.port).toBe("8443")
      expect(yield* reasonOf("http://93.184.215.14/")).toBe("accepted 93.184.215.14")
    })
  )

  it.effect("refuses localhost, which the system resolver answers from /etc/hosts", () =>
    Effect.gen(function* () {
      expect(yield* reasonOf("http://localhost:8080/x")).toMatch(
        /^resolves to a loopback address \((127\.0\.0\.1|::1)\)$/
      )
    })
  )

  it.effect("refuses a name that does not resolve", () =>
    Effect.gen(function* () {
      expect(yield* reasonOf("http://nonexistent.invalid/")).toMatch(
        /^(does not resolve|could not be resolved \(.+\))$/
      )
      expect(yield* reasonOf("http://nonexistent.invalid/", PostbackTargetCheck.make(fixedResolver({})))).toBe(
        "does not resolve"
      )
      expect(
        yield* reasonOf("http://empty.invalid/", PostbackTargetCheck.make(fixedResolver({ "empty.invalid": [] })))
      ).toBe("does not resolve")
      const failing: PostbackTargetCheck.Resolve = () =>
        Promise.reject(Object.assign(new Error("timeout"), { code: "EAI_AGAIN" }))
      expect(yield* reasonOf("http://slow.invalid/", PostbackTargetCheck.make(failing))).toBe(
        "could not be resolved (EAI_AGAIN)"
      )
    })
  )

  it.effect("refuses a name when any of its addresses is not public, and returns all of them when none is", () =>
    Effect.gen(function* () {
      const check = PostbackTargetCheck.make(
        fixedResolver({
          "public.invalid": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
          "mixed.invalid": ["93.184.215.14", "10.0.0.5"],
          "metadata.invalid": ["::ffff:169.254.169.254"]
        })
      )
      const checked = yield* check("https://public.invalid/hooks")
      expect(checked.addresses).toEqual(["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"])
      expect(checked.url.hostname).toBe("public.invalid")
      expect(yield* reasonOf("https://mixed.invalid/", check)).toBe("resolves to a private address (10.0.0.5)")
      expect(yield* reasonOf("https://metadata.invalid/", check)).toBe(
        "resolves to a link-local address (::ffff:169.254.169.254)"
      )
    })
  )
})
