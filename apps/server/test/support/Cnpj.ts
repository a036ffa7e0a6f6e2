// Valid CNPJs for test companies, unique within a run.

let cnpjSeed = 0

/** A valid, unique CNPJ for each test company. */
export const nextCnpj = (): string => {
  cnpjSeed += 1
  const base = `${String(10_000_000 + ((Date.now() + cnpjSeed * 7919) % 89_999_999)).padStart(8, "0")}0001`
  const digit = (body: string) => {
    let weight = 2
    let sum = 0
    for (let i = body.length - 1; i >= 0; i--) {
      sum += Number(body[i]) * weight
      weight = weight === 9 ? 2 : weight + 1
    }
    const rest = sum % 11
    return rest < 2 ? 0 : 11 - rest
  }
  const first = digit(base)
  return `${base}${first}${digit(`${base}${first}`)}`
}
