/**
 * The bounds of the amounts an owner types: prices (`model allow`, `ratecard set`, the console's model form)
 * and USD amounts (`project update --balance-usd / --credit-usd`). Plain data (no zod), so the CLI, the
 * admin function and the console's page check the same bounds.
 */

/**
 * The dearest price a rate card takes: 100,000,000 micro-USD, that is 100 USD per 1,000 tokens (0.10 USD a
 * token, hundreds of times today's dearest model; 100,000 USD per million) or per 1,000 characters, and
 * 100 USD per unit (a request, an image, a second). At it, one request is still priced exactly up to about
 * 90 million tokens or 90,000 units: a usage record's cost is exact up to 2^53 − 1 nano-USD.
 */
export const MAX_PRICE_MICROS = 100_000_000;

/** The largest balance or credit one command gives: just under a billion USD (9 whole digits, 9 decimals). */
export const MAX_USD_AMOUNT = '999999999.999999999';
