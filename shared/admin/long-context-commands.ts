import { GatewayError } from '../core/errors.ts';
import { LONG_CONTEXT_PRICES, LONG_CONTEXT_THRESHOLD, type LongContextPriceCommandField, type LongContextPriceField } from '../core/long-context-prices.ts';
import type { RateCardEntry } from '../core/project-config.ts';

/** The long-context fields of `model allow` and `ratecard set`. */
type LongContextCommand = Partial<Record<LongContextPriceCommandField, number>> & { longContextAboveTokens?: number | 'none' | undefined };

/** Whether the command says anything of the long-context tier. */
export function longContextGiven(command: LongContextCommand): boolean {
  return command.longContextAboveTokens !== undefined || LONG_CONTEXT_PRICES.some((price) => command[price.commandField] !== undefined);
}

/**
 * The long-context tier a command gives, each field not given kept from the previous entry; `none` removes
 * the tier with its prices. Prices without a threshold (given now or before) are refused: they would never
 * apply, and an owner who set them expects them to.
 */
export function withLongContextPrices(command: LongContextCommand, previous: RateCardEntry | undefined): Partial<Record<LongContextPriceField | 'longContextAboveTokens', number>> {
  const pricesGiven = LONG_CONTEXT_PRICES.filter((price) => command[price.commandField] !== undefined);
  if (command.longContextAboveTokens === 'none') {
    if (pricesGiven.length > 0) throw longContextRefusal(`${LONG_CONTEXT_THRESHOLD.flag} none removes the long-context tier; its prices cannot be set with it.`);
    return {};
  }
  const aboveTokens = command.longContextAboveTokens ?? previous?.longContextAboveTokens;
  if (aboveTokens === undefined) {
    if (pricesGiven.length > 0) throw longContextRefusal(`Long-context prices apply above a prompt size: give ${LONG_CONTEXT_THRESHOLD.flag} N with them.`);
    return {};
  }
  const tier: Partial<Record<LongContextPriceField | 'longContextAboveTokens', number>> = { longContextAboveTokens: aboveTokens };
  for (const price of LONG_CONTEXT_PRICES) {
    const micros = command[price.commandField] ?? previous?.[price.rateField];
    if (micros !== undefined) tier[price.rateField] = micros;
  }
  return tier;
}

/** The tier as admin answers print it, when the rate has one: its threshold and each price (null: derived from the standard one). */
export function describeLongContextPrices(rate: RateCardEntry | undefined): Record<string, number | null> {
  if (rate?.longContextAboveTokens === undefined) return {};
  const described: Record<string, number | null> = { [LONG_CONTEXT_THRESHOLD.listName]: rate.longContextAboveTokens };
  for (const price of LONG_CONTEXT_PRICES) described[price.listName] = rate[price.rateField] ?? null;
  return described;
}

function longContextRefusal(message: string): GatewayError {
  return new GatewayError('invalid_request', message, { code: 'invalid_command', param: 'long_context_above_tokens' });
}
