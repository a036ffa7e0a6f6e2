// A field of a CNAB 240 record as FEBRABAN's layout tables give it: its name in the tables, its positions (1-based,
// inclusive), its picture — numeric (`9`, right-aligned, zero-filled) or alphanumeric (`X`, left-aligned,
// blank-filled) — the decimals a numeric field implies, and the content the layout fixes, if any.

export type Picture = "numeric" | "alphanumeric"

export interface Field {
  /** The field's name in FEBRABAN's tables, as written there. */
  readonly name: string
  readonly from: number
  readonly to: number
  readonly picture: Picture
  /** Implied decimals of a numeric field (`9(13)V9(2)`): its digits are the value times 10^decimals. */
  readonly decimals: number
  /** What the layout fixes the field to; a line with anything else is malformed. */
  readonly constant?: string
  /**
   * An alphanumeric field whose content is case-sensitive (a pix key, a txid): written as given, not folded to the
   * capitals without accents the layout asks of names and addresses.
   */
  readonly verbatim?: boolean
}

/** A record's fields by the name the code gives them, in the order of their positions. */
export type Layout = Readonly<Record<string, Field>>

export const width = (field: Field): number => field.to - field.from + 1

export const numeric = (
  name: string,
  from: number,
  to: number,
  options: { readonly decimals?: number; readonly constant?: string } = {}
): Field => ({
  name,
  from,
  to,
  picture: "numeric",
  decimals: options.decimals ?? 0,
  ...(options.constant === undefined ? {} : { constant: options.constant })
})

export const alphanumeric = (
  name: string,
  from: number,
  to: number,
  options: { readonly constant?: string; readonly verbatim?: boolean } = {}
): Field => ({
  name,
  from,
  to,
  picture: "alphanumeric",
  decimals: 0,
  ...(options.constant === undefined ? {} : { constant: options.constant }),
  ...(options.verbatim === true ? { verbatim: true } : {})
})

/** Positions FEBRABAN keeps for itself: blanks. */
export const reserved = (from: number, to: number): Field =>
  alphanumeric("Uso Exclusivo FEBRABAN / CNAB", from, to, { constant: "" })
