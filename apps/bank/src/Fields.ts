// How the local bank reads and writes the positions of a CNAB 240 line: its own small reader, written apart from
// Fatura's, so that what it accepts is a second opinion on what Fatura writes.

/** Positions `from`..`to` of a line, 1-based and inclusive, as FEBRABAN's tables give them. */
export const at = (line: string, from: number, to: number): string => line.slice(from - 1, to)

export const isDigits = (text: string): boolean => /^\d+$/.test(text)

/** A `DDMMAAAA` field as `YYYY-MM-DD`, or null when it is no day of the calendar. */
export const dayOf = (field: string): string | null => {
  if (!/^\d{8}$/.test(field)) return null
  const iso = `${field.slice(4)}-${field.slice(2, 4)}-${field.slice(0, 2)}`
  const date = new Date(`${iso}T00:00:00Z`)
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso ? null : iso
}

/** `YYYY-MM-DD` as `DDMMAAAA`. */
export const ddmmaaaa = (iso: string): string => `${iso.slice(8, 10)}${iso.slice(5, 7)}${iso.slice(0, 4)}`

/** Digits right-aligned in `width`, zero-filled. */
export const digits = (value: string | number, width: number): string => {
  const text = String(value)
  if (!/^\d*$/.test(text) || text.length > width) throw new RangeError(`${text} does not fit ${width} digits`)
  return text.padStart(width, "0")
}

/** Text left-aligned in `width`, blank-filled and cut to it. */
export const text = (value: string, width: number): string => value.slice(0, width).padEnd(width, " ")

/** Builds a 240-character line from pieces written at their positions; what no piece covers is blank. */
export const line = (pieces: ReadonlyArray<readonly [from: number, content: string]>): string => {
  const characters = Array.from({ length: 240 }, () => " ")
  for (const [from, content] of pieces) {
    if (from - 1 + content.length > 240) throw new RangeError(`a piece at ${from} runs past position 240`)
    for (let index = 0; index < content.length; index++) characters[from - 1 + index] = content[index]!
  }
  return characters.join("")
}
