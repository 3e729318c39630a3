/**
 * The bounds of the amounts an owner types. Plain data (no zod), so the CLI, the admin function and the
 * console's page check the same bounds.
 */

/** The largest balance or credit one command gives: just under a billion USD (9 whole digits, 9 decimals). */
export const MAX_USD_AMOUNT = '999999999.999999999';
