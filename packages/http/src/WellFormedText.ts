// The rule every piece of text a request carries meets, wherever it came from (the JSON body, the query): text that
// can be stored and sent on. Postgres text cannot hold NUL, and a lone surrogate (`"\ud800"` in JSON) has no UTF-8
// form; both are refused where they are decoded, with the field they came in, instead of failing further in.

// Without the `u` flag the pattern sees UTF-16 code units, which is what finds a surrogate without its partner.
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** What is wrong with `text`, or `undefined` when it is well-formed. */
export const problemOf = (text: string): string | undefined =>
  text.includes("\u0000")
    ? "must not contain NUL characters"
    : loneSurrogate.test(text)
      ? "must be well-formed Unicode (a lone surrogate)"
      : undefined
