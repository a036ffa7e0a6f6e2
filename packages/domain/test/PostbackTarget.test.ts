import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import * as fc from "fast-check"
import { PostbackTarget } from "../src/index.js"

const parsed = (url: string) => Result.getOrThrow(PostbackTarget.parseUrl(url))
const urlReason = (url: string) =>
  Result.match(PostbackTarget.parseUrl(url), { onSuccess: () => "accepted", onFailure: (error) => error.reason })
const addressReason = (address: string, source: "literal" | "resolved") =>
  Result.match(PostbackTarget.checkAddress(address, source), {
    onSuccess: () => "accepted",
    onFailure: (error) => error.reason
  })

const examples: Record<PostbackTarget.AddressKind, ReadonlyArray<string>> = {
  loopback: [
    "127.0.0.1", // SPEC 8.4
    "127.255.255.254",
    "127.1",
    "0x7f.0.0.1",
    "0X7F.0.0.1",
    "2130706433",
    "017700000001",
    "0x7f000001",
    "127.0.0.1.",
    "::1", // SPEC 8.4
    "0:0:0:0:0:0:0:1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::FFFF:7F00:1",
    "0:0:0:0:0:ffff:7f00:1",
    "64:ff9b::127.0.0.1",
    "64:ff9b::7f00:1",
    "2002:7f00:1::1",
    "[::1]"
  ],
  private: [
    "10.0.0.1",
    "10.0.0.5",
    "10.255.255.255",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.0.1",
    "192.168.1.1",
    "100.64.0.1",
    "100.127.255.255",
    "::ffff:10.0.0.1",
    "::ffff:c0a8:101",
    "64:ff9b::10.1.2.3",
    "64:ff9b:1::1",
    "fc00::1",
    "fd12:3456:789a::1",
    "FDFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF",
    "fec0::1"
  ],
  link_local: [
    "169.254.169.254", // SPEC 8.4: the cloud metadata endpoint
    "169.254.0.1",
    "::ffff:169.254.169.254",
    "::ffff:a9fe:a9fe",
    "fe80::1",
    "fe80::1%eth0",
    "FE80::1%25",
    "febf:ffff::1"
  ],
  multicast: ["224.0.0.1", "239.255.255.250", "ff02::1", "ff05::1:3", "::ffff:224.0.0.251"],
  unspecified: ["0.0.0.0", "0", "::", "0:0:0:0:0:0:0:0", "::ffff:0.0.0.0"],
  reserved: [
    "0.1.2.3",
    "192.0.0.8",
    "192.0.0.170",
    "192.0.2.10",
    "198.18.0.1",
    "198.19.255.255",
    "198.51.100.7",
    "203.0.113.200",
    "240.0.0.1",
    "255.255.255.255",
    "2001:db8::1",
    "2001:DB8:ffff::1",
    "2001::1",
    "3fff::1",
    "100::1",
    "::7f00:1", // IPv4-compatible, long deprecated
    "1::",
    "not an address",
    "localhost",
    "",
    "256.0.0.1",
    "1.2.3.4.5",
    "1::2::3",
    "1:2:3:4:5:6:7:8:9",
    "12345::1",
    "::ffff:1.2.3.04",
    "1.2.3.4::"
  ],
  public: [
    "8.8.8.8",
    "1.1.1.1",
    "93.184.215.14",
    "172.15.255.255",
    "172.32.0.1",
    "100.63.255.255",
    "100.128.0.1",
    "169.253.255.255",
    "192.167.255.255",
    "198.17.255.255",
    "198.20.0.1",
    "223.255.255.255",
    "2606:4700:4700::1111",
    "2a00:1450:4001:82b::200e",
    "2001:4860:4860::8888",
    "::ffff:8.8.8.8",
    "64:ff9b::8.8.8.8",
    "2002:808:808::1"
  ]
}

describe("PostbackTarget", () => {
  describe("parseUrl", () => {
    it("reads protocol, host and port of http and https URLs", () => {
      expect(parsed("https://merchant.example/postbacks?shop=1")).toEqual({
        protocol: "https",
        host: "merchant.example",
        port: null
      })
      expect(parsed("HTTP://Merchant.Example:8080/x")).toEqual({
        protocol: "http",
        host: "merchant.example",
        port: 8080
      })
      expect(parsed("https://merchant.example:443/")).toEqual({
        protocol: "https",
        host: "merchant.example",
        port: null
      })
      expect(parsed("http://café.example/")).toEqual({ protocol: "http", host: "xn--caf-dma.example", port: null })
    })

    it("gives IPv6 hosts without brackets and IPv4 hosts in dotted decimal, however written", () => {
      expect(parsed("http://[::1]:8080/")).toEqual({ protocol: "http", host: "::1", port: 8080 })
      expect(parsed("http://[::FFFF:127.0.0.1]/").host).toBe("::ffff:7f00:1")
      for (const host of ["2130706433", "127.1", "0x7f.0.0.1", "017700000001", "0x7f000001"]) {
        expect(parsed(`http://${host}/`).host).toBe("127.0.0.1")
      }
    })

    it("accepts only http and https", () => {
      for (const url of ["ftp://example.com/", "file:///etc/passwd", "javascript:alert(1)", "gopher://example.com/"]) {
        expect(urlReason(url)).toBe("only http and https URLs")
      }
    })

    it("accepts only absolute URLs", () => {
      for (const url of ["example.com/postbacks", "/postbacks", "//example.com/", "", "http://", "http://[::1/"]) {
        expect(urlReason(url)).toBe("not an absolute URL")
      }
    })

    it("refuses credentials in the URL", () => {
      expect(urlReason("https://user:secret@example.com/")).toBe("credentials are not allowed in the URL")
      expect(urlReason("https://user@example.com/")).toBe("credentials are not allowed in the URL")
      expect(urlReason("https://:secret@example.com/")).toBe("credentials are not allowed in the URL")
    })

    it("accepts up to 2048 characters", () => {
      const prefix = "https://example.com/"
      expect(urlReason(prefix + "a".repeat(2048 - prefix.length))).toBe("accepted")
      expect(urlReason(prefix + "a".repeat(2049 - prefix.length))).toBe("longer than 2048 characters")
    })
  })

  describe("classifyAddress", () => {
    for (const [kind, addresses] of Object.entries(examples)) {
      it(`knows ${kind} addresses`, () => {
        for (const address of addresses)
          expect([address, PostbackTarget.classifyAddress(address)]).toEqual([address, kind])
      })
    }
  })

  describe("isIpAddress", () => {
    it("tells addresses, in every form, from names", () => {
      for (const address of ["127.0.0.1", "2130706433", "127.1", "::1", "fe80::1%eth0", "::ffff:10.0.0.1", "[::1]"]) {
        expect([address, PostbackTarget.isIpAddress(address)]).toEqual([address, true])
      }
      for (const name of ["localhost", "example.com", "", "1.2.3.4.5", "256.1.1.1", "1::2::3", "127.0.0.1.example"]) {
        expect([name, PostbackTarget.isIpAddress(name)]).toEqual([name, false])
      }
    })
  })

  describe("isAllowed", () => {
    it("allows only public addresses", () => {
      expect(PostbackTarget.isAllowed("public")).toBe(true)
      for (const kind of ["loopback", "private", "link_local", "multicast", "unspecified", "reserved"] as const) {
        expect(PostbackTarget.isAllowed(kind)).toBe(false)
      }
    })
  })

  describe("checkAddress", () => {
    it("says what the address is and how it was reached", () => {
      expect(addressReason("10.0.0.5", "resolved")).toBe("resolves to a private address (10.0.0.5)")
      expect(addressReason("127.0.0.1", "literal")).toBe("is a loopback address (127.0.0.1)")
      expect(addressReason("169.254.169.254", "literal")).toBe("is a link-local address (169.254.169.254)")
      expect(addressReason("::1", "resolved")).toBe("resolves to a loopback address (::1)")
      expect(addressReason("::", "literal")).toBe("is an unspecified address (::)")
      expect(addressReason("ff02::1", "literal")).toBe("is a multicast address (ff02::1)")
      expect(addressReason("2001:db8::1", "literal")).toBe("is a reserved address (2001:db8::1)")
      expect(Result.getOrThrow(PostbackTarget.checkAddress("93.184.215.14", "literal"))).toBe("93.184.215.14")
    })
  })

  describe("properties", () => {
    // Written apart from the module: each range as a first address and a prefix length, with the kind it has.
    const ipv4Ranges: ReadonlyArray<readonly [string, number, PostbackTarget.AddressKind]> = [
      ["0.0.0.0", 8, "reserved"],
      ["10.0.0.0", 8, "private"],
      ["100.64.0.0", 10, "private"],
      ["127.0.0.0", 8, "loopback"],
      ["169.254.0.0", 16, "link_local"],
      ["172.16.0.0", 12, "private"],
      ["192.0.0.0", 24, "reserved"],
      ["192.0.2.0", 24, "reserved"],
      ["192.88.99.0", 24, "reserved"],
      ["192.168.0.0", 16, "private"],
      ["198.18.0.0", 15, "reserved"],
      ["198.51.100.0", 24, "reserved"],
      ["203.0.113.0", 24, "reserved"],
      ["224.0.0.0", 4, "multicast"],
      ["240.0.0.0", 4, "reserved"]
    ]
    const ipv4Number = (text: string) => text.split(".").reduce((value, part) => value * 256 + Number(part), 0)
    const ipv4Text = (value: number) => [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join(".")
    const inIpv4Range = (value: number, [first, prefixLength]: readonly [string, number, unknown]) =>
      Math.floor(value / 2 ** (32 - prefixLength)) === Math.floor(ipv4Number(first) / 2 ** (32 - prefixLength))
    const ipv4InRange = ([first, prefixLength]: readonly [string, number, unknown]) =>
      fc.integer({ min: 0, max: 2 ** (32 - prefixLength) - 1 }).map((offset) => ipv4Text(ipv4Number(first) + offset))

    // IPv6 as eight groups, written in full or with the longest run of zero groups as `::`, in either case.
    const ipv6Text = (groups: ReadonlyArray<number>, compress: boolean, upper: boolean) => {
      const hex = groups.map((group) => group.toString(16))
      let text = hex.join(":")
      if (compress) {
        let best = { start: -1, length: 0 }
        for (let start = 0; start < 8; start++) {
          let length = 0
          while (start + length < 8 && groups[start + length] === 0) length++
          if (length > best.length) best = { start, length }
        }
        if (best.length > 0) {
          text = `${hex.slice(0, best.start).join(":")}::${hex.slice(best.start + best.length).join(":")}`
        }
      }
      return upper ? text.toUpperCase() : text
    }
    const group = fc.integer({ min: 0, max: 0xffff })
    // Mostly zeros, so that `::` gets exercised.
    const sparseGroup = fc.oneof(fc.constant(0), group)
    const ipv6With = (fixed: ReadonlyArray<number>, firstGroupMask: number) =>
      fc
        .tuple(fc.array(sparseGroup, { minLength: 8, maxLength: 8 }), fc.boolean(), fc.boolean())
        .map(([random, compress, upper]) => {
          const groups = random.map((value, i) =>
            i < fixed.length - 1 ? fixed[i]! : i === fixed.length - 1 ? fixed[i]! | (value & firstGroupMask) : value
          )
          return ipv6Text(groups, compress, upper)
        })

    it("classifies every IPv4 address inside a listed range as that range's kind, never public", () => {
      for (const entry of ipv4Ranges) {
        const [, , kind] = entry
        fc.assert(
          fc.property(ipv4InRange(entry), (address) => {
            const classified = PostbackTarget.classifyAddress(address)
            expect(classified).not.toBe("public")
            // 0.0.0.0 itself is "unspecified" inside the reserved 0.0.0.0/8.
            if (address !== "0.0.0.0") expect(classified).toBe(kind)
            // The same address behind an IPv4-mapped or NAT64 IPv6 address is the same kind.
            expect(PostbackTarget.classifyAddress(`::ffff:${address}`)).toBe(classified)
            expect(PostbackTarget.classifyAddress(`64:ff9b::${address}`)).toBe(classified)
          })
        )
      }
    })

    it("classifies IPv4 addresses outside every listed range as public", () => {
      const outside = fc
        .integer({ min: 0, max: 2 ** 32 - 1 })
        .filter((value) => !ipv4Ranges.some((entry) => inIpv4Range(value, entry)))
      fc.assert(
        fc.property(outside, (value) => {
          expect(PostbackTarget.classifyAddress(ipv4Text(value))).toBe("public")
          expect(PostbackTarget.classifyAddress(String(value))).toBe("public")
          expect(PostbackTarget.classifyAddress(`::ffff:${ipv4Text(value)}`)).toBe("public")
        })
      )
    })

    it("classifies every IPv6 address inside a listed range as that range's kind", () => {
      const ranges: ReadonlyArray<readonly [ReadonlyArray<number>, number, PostbackTarget.AddressKind]> = [
        [[0xfc00], 0x01ff, "private"],
        [[0xfe80], 0x003f, "link_local"],
        [[0xfec0], 0x003f, "private"],
        [[0xff00], 0x00ff, "multicast"],
        [[0x2001, 0x0db8], 0, "reserved"],
        [[0x2001, 0x0000], 0x01ff, "reserved"],
        [[0x3fff, 0x0000], 0x0fff, "reserved"],
        [[0x0064, 0xff9b, 0x0001], 0, "private"]
      ]
      for (const [fixed, firstGroupMask, kind] of ranges) {
        fc.assert(
          fc.property(ipv6With(fixed, firstGroupMask), (address) => {
            expect([address, PostbackTarget.classifyAddress(address)]).toEqual([address, kind])
          })
        )
      }
      fc.assert(
        fc.property(ipv6With([0xfe80], 0x003f), fc.stringMatching(/^[a-z0-9]{1,8}$/), (address, zone) => {
          expect(PostbackTarget.classifyAddress(`${address}%${zone}`)).toBe("link_local")
        })
      )
    })

    it("classifies global unicast IPv6 addresses outside every listed range as public", () => {
      // 2000::/3 less 2001::/23, 2002::/16 (6to4: the embedded IPv4 address decides) and 3fff::/20.
      const globalUnicast = fc
        .tuple(
          fc.integer({ min: 0x2000, max: 0x3fff }),
          fc.integer({ min: 0, max: 0xffff }),
          fc.array(sparseGroup, { minLength: 6, maxLength: 6 }),
          fc.boolean(),
          fc.boolean()
        )
        .filter(([first, second]) => !(first === 0x2001 && second <= 0x01ff) && first !== 0x2002 && first < 0x3fff)
        .map(([first, second, rest, compress, upper]) => ipv6Text([first, second, ...rest], compress, upper))
      fc.assert(
        fc.property(globalUnicast, (address) => {
          expect([address, PostbackTarget.classifyAddress(address)]).toEqual([address, "public"])
        })
      )
    })

    it("classifies IPv6 addresses outside 2000::/3 and every listed range as reserved", () => {
      const unallocated = fc
        .tuple(
          fc.integer({ min: 0x4000, max: 0xfbff }),
          fc.array(sparseGroup, { minLength: 7, maxLength: 7 }),
          fc.boolean()
        )
        .filter(([first]) => first !== 0x5f00)
        .map(([first, rest, compress]) => ipv6Text([first, ...rest], compress, false))
      fc.assert(
        fc.property(unallocated, (address) => {
          expect([address, PostbackTarget.classifyAddress(address)]).toEqual([address, "reserved"])
        })
      )
    })
  })
})
