import type { BilledUnit } from './billed-units.ts';

/**
 * The rate card's prices beyond tokens, one per billed unit, in integer micro-USD: per request, per image,
 * per second of audio, per 1,000 characters spoken (like tokens, so cheap voices need no fractions), per
 * search unit, per second of video, per web search. One table names each price everywhere it appears: the rate card field,
 * the admin command field and CLI flag (after the token flags: `--input-micros-per-1k`), the snake_case
 * name admin answers print and the `pricing` field of /v1/models.
 */
export const UNIT_PRICES = [
  { unit: 'requests', rateField: 'requestPriceMicros', commandField: 'requestMicros', flag: '--request-micros', listName: 'request_price_micros', pricingField: 'request', per1k: false, description: 'price of each request the provider accepts, micro-USD' },
  { unit: 'images', rateField: 'imagePriceMicros', commandField: 'imageMicros', flag: '--image-micros', listName: 'image_price_micros', pricingField: 'image', per1k: false, description: 'price of each image made (when the provider reports no image tokens), micro-USD' },
  { unit: 'audioSeconds', rateField: 'audioSecondPriceMicros', commandField: 'audioSecondMicros', flag: '--audio-second-micros', listName: 'audio_second_price_micros', pricingField: 'audio', per1k: false, description: 'price of each second of audio transcribed or translated, micro-USD' },
  { unit: 'characters', rateField: 'characterPriceMicrosPer1k', commandField: 'characterMicrosPer1k', flag: '--character-micros-per-1k', listName: 'character_price_micros_per_1k', pricingField: 'character', per1k: true, description: 'price of the characters turned into speech, micro-USD per 1,000' },
  { unit: 'searchUnits', rateField: 'searchUnitPriceMicros', commandField: 'searchUnitMicros', flag: '--search-unit-micros', listName: 'search_unit_price_micros', pricingField: 'search_unit', per1k: false, description: 'price of each rerank search unit (a query over up to 100 documents), micro-USD' },
  { unit: 'videoSeconds', rateField: 'videoSecondPriceMicros', commandField: 'videoSecondMicros', flag: '--video-second-micros', listName: 'video_second_price_micros', pricingField: 'video', per1k: false, description: 'price of each second of video made, micro-USD' },
  { unit: 'webSearches', rateField: 'webSearchPriceMicros', commandField: 'webSearchMicros', flag: '--web-search-micros', listName: 'web_search_price_micros', pricingField: 'web_search', per1k: false, description: "price of each web search the provider runs for the model (its web search tool), micro-USD" },
] as const satisfies ReadonlyArray<{ unit: BilledUnit; rateField: string; commandField: string; flag: string; listName: string; pricingField: string; per1k: boolean; description: string }>;

export type UnitPrice = (typeof UNIT_PRICES)[number];
export type UnitPriceField = UnitPrice['rateField'];
export type UnitPriceCommandField = UnitPrice['commandField'];

/** Nano-USD per unit for a price in micro-USD: ×1000, or ×1 for a price per 1,000 units. */
export function nanosPerUnit(price: UnitPrice, micros: number): bigint {
  return BigInt(micros) * (price.per1k ? 1n : 1000n);
}

/** The decimal places that turn a price into USD per unit: 6 for micro-USD, 9 for micro-USD per 1,000. */
export function usdScale(price: UnitPrice): number {
  return price.per1k ? 9 : 6;
}
