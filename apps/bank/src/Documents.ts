// CPF and CNPJ check digits, as the bank checks a payer's or a payee's inscription.

const checkDigit = (digits: ReadonlyArray<number>, weights: ReadonlyArray<number>): number => {
  const rest = digits.reduce((sum, digit, index) => sum + digit * weights[index]!, 0) % 11
  return rest < 2 ? 0 : 11 - rest
}

export const isCpf = (document: string): boolean => {
  if (!/^\d{11}$/.test(document) || /^(\d)\1{10}$/.test(document)) return false
  const digits = [...document].map(Number)
  const first = checkDigit(digits.slice(0, 9), [10, 9, 8, 7, 6, 5, 4, 3, 2])
  const second = checkDigit(digits.slice(0, 10), [11, 10, 9, 8, 7, 6, 5, 4, 3, 2])
  return digits[9] === first && digits[10] === second
}

export const isCnpj = (document: string): boolean => {
  if (!/^\d{14}$/.test(document) || /^(\d)\1{13}$/.test(document)) return false
  const digits = [...document].map(Number)
  const first = checkDigit(digits.slice(0, 12), [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
  const second = checkDigit(digits.slice(0, 13), [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
  return digits[12] === first && digits[13] === second
}

/** An inscription as a layout writes it — type 1 with a CPF, or 2 with a CNPJ, right-aligned and zero-filled. */
export const isInscription = (type: string, number: string): boolean => {
  const length = type === "1" ? 11 : type === "2" ? 14 : 0
  if (length === 0 || !/^0*$/.test(number.slice(0, -length))) return false
  return type === "1" ? isCpf(number.slice(-length)) : isCnpj(number.slice(-length))
}
