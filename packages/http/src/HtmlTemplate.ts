// Pages the server writes, kept as real files in the package's `assets/` folder (linted by biome like the code) and
// read once, when this module's user is loaded, never per response. A template is an HTML file with `{{name}}` slots
// in its text and quoted attribute values, and `data-slot="name"` on an empty `<script>` whose content is a slot (so
// that the file stays valid where the content is parsed, as JSON). Its stylesheets (`<link rel="stylesheet"
// href="…">`) and scripts (`<script src="…">`) are files beside it, put inline when it is read, where a
// Content-Security-Policy nonce lets them run. A template is cut at its slots once; filling it joins the cuts with the
// values, each escaped as text unless it is `Markup` the caller built, in one pass: what a value holds is never read
// as a slot.
import { readFileSync } from "node:fs"
import * as Html from "./Html.js"

/** Markup built by the caller (its own text escaped), put into a slot as it is. */
export interface Markup {
  readonly markup: string
}

export const markup = (html: string): Markup => ({ markup: html })

/** JSON that may stand as the content of a `<script>`: nothing in it can close the element or open a comment. */
export const scriptJson = (value: unknown): Markup =>
  markup(
    JSON.stringify(value)
      .replace(/</g, "\\u003c")
      .replace(/\u2028/g, "\\u2028")
      .replace(/\u2029/g, "\\u2029")
  )

export type Values<Slot extends string> = { readonly [K in Slot]: string | Markup }

export interface Template<Slot extends string> {
  readonly fill: (values: Values<Slot>) => string
}

/** A file of `assets/` as text. */
const asset = (path: string): string =>
  readFileSync(new URL(`../assets/${path}`, import.meta.url), { encoding: "utf8" })

/** `source` inline in an element whose content is raw text, which it must not end early. */
const rawText = (path: string, element: "style" | "script") => {
  const source = asset(path)
  if (new RegExp(`</${element}|<!--`, "i").test(source) || source.includes("{{")) {
    throw new Error(`assets/${path} cannot stand inline in a <${element}>: it holds </${element}, <!-- or {{`)
  }
  return source
}

const inlined = (folder: string, html: string) =>
  html
    .replace(
      /<link rel="stylesheet" href="([\w.-]+)" nonce="\{\{nonce\}\}">/g,
      (_, name: string) => `<style nonce="{{nonce}}">\n${rawText(`${folder}/${name}`, "style")}</style>`
    )
    .replace(
      /<script src="([\w.-]+)" nonce="\{\{nonce\}\}"><\/script>/g,
      (_, name: string) => `<script nonce="{{nonce}}">\n${rawText(`${folder}/${name}`, "script")}</script>`
    )
    .replace(/ data-slot="(\w+)"><\/script>/g, ">{{$1}}</script>")

/**
 * The template `html` (named `name` in errors), which must have exactly `slots`: a slot missing or unknown is an error
 * when the server starts, not a page with a hole.
 */
export const make = <const Slot extends string>(
  name: string,
  html: string,
  slots: ReadonlyArray<Slot>
): Template<Slot> => {
  const parts = html.split(/\{\{(\w*)\}\}/)
  const texts = parts.filter((_, index) => index % 2 === 0)
  const names = parts.filter((_, index) => index % 2 === 1) as Array<Slot>
  const found = new Set<string>(names)
  const wanted = new Set<string>(slots)
  const unknown = [...found].filter((name) => !wanted.has(name))
  const missing = slots.filter((name) => !found.has(name))
  if (unknown.length > 0 || missing.length > 0) {
    throw new Error(`${name}: slots ${JSON.stringify({ unknown, missing })}`)
  }
  return {
    fill: (values) => {
      let page = texts[0] ?? ""
      for (let index = 0; index < names.length; index++) {
        const value = values[names[index]!]
        page += (typeof value === "string" ? Html.escapeText(value) : value.markup) + texts[index + 1]
      }
      return page
    }
  }
}

/** The template `assets/<path>`, its stylesheets and scripts inline. */
export const read = <const Slot extends string>(path: string, slots: ReadonlyArray<Slot>): Template<Slot> =>
  make(`assets/${path}`, inlined(path.slice(0, path.lastIndexOf("/")), asset(path)), slots)
