// What the bank reads from a boleto a payer brings: a 44-digit barcode, or the 47-digit digitable line it is written
// as, back to the barcode; and from the barcode, the amount and the free field, where the beneficiary keeps its our
// number (Fatura's: the first 17 of its 25 digits).

/** The barcode of a digitable line (dots, blanks and dashes ignored), or null when it is neither. */
export const barcodeOf = (input: string): string | null => {
  const plain = input.replace(/[\s.-]/g, "")
  if (/^\d{44}$/.test(plain)) return plain
  if (!/^\d{47}$/.test(plain)) return null
  // Fields: 1 = bank, currency, free 1–5 (+ DV); 2 = free 6–15 (+ DV); 3 = free 16–25 (+ DV); 4 = general DV;
  // 5 = due-date factor and amount.
  return `${plain.slice(0, 4)}${plain.slice(32, 33)}${plain.slice(33, 47)}${plain.slice(4, 9)}${plain.slice(10, 20)}${plain.slice(21, 31)}`
}

/** The general check digit of a barcode: modulo 11 over the other 43 digits, weights 2 to 9; 0, 10 and 11 are 1. */
export const generalDigit = (barcode: string): number => {
  const digits = `${barcode.slice(0, 4)}${barcode.slice(5)}`
  let sum = 0
  let weight = 2
  for (let index = digits.length - 1; index >= 0; index--) {
    sum += Number(digits[index]) * weight
    weight = weight === 9 ? 2 : weight + 1
  }
  const digit = 11 - (sum % 11)
  return digit === 0 || digit === 10 || digit === 11 ? 1 : digit
}

export interface ReadBarcode {
  readonly bankCode: string
  /** Cents. */
  readonly amount: number
  readonly freeField: string
}

/** A barcode's parts, or null when its general check digit is wrong. */
export const read = (barcode: string): ReadBarcode | null =>
  /^\d{44}$/.test(barcode) && Number(barcode[4]) === generalDigit(barcode)
    ? { bankCode: barcode.slice(0, 3), amount: Number(barcode.slice(9, 19)), freeField: barcode.slice(19) }
    : null

/** Fatura's our number in a free field: its first 17 digits, without the zeros before it. */
export const ourNumberOf = (freeField: string): string => freeField.slice(0, 17).replace(/^0+(?=\d)/, "")
