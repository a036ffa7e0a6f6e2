// Money as a non-negative integer number of cents, so that no amount ever passes through floating point
// on its way to the database, the wire or a BR Code.
import { Schema } from "effect"

export const Cents = Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0)), Schema.brand("Cents"))
export type Cents = typeof Cents.Type

/** Throws when `n` is not a non-negative integer: for literals and values already known to be cents. */
export const make = (n: number): Cents => Cents.make(n)

/**
 * `percent` % of `amount`, rounded half up to the cent (SPEC 1). The percentage is taken in hundredths of a
 * percent so that the product stays an exact integer: 1.99 becomes 199, whose float form 198.999… rounds back.
 */
export const percentOf = (amount: Cents, percent: number): Cents => {
  const hundredths = BigInt(Math.round(percent * 100))
  return make(Number((BigInt(amount) * hundredths + 5_000n) / 10_000n))
}

const reais = (c: Cents): string => Math.floor(c / 100).toString()
const centavos = (c: Cents): string => (c % 100).toString().padStart(2, "0")

/** Brazilian display form, `R$ 1.234,56`, written by hand: `Intl` puts a no-break space after `R$`. */
export const formatBRL = (c: Cents): string => `R$ ${reais(c).replace(/\B(?=(\d{3})+$)/g, ".")},${centavos(c)}`

/** Plain decimal form with two places, `1234.56`, as pix field 54 wants it. */
export const toDecimalString = (c: Cents): string => `${reais(c)}.${centavos(c)}`
