/**
 * How to parse what a function parses once per cold start or per cache miss (its settings, a project's
 * configuration, a key's record, a provider's secret): without zod's parser generation. On an object
 * schema's first parse zod writes and compiles a parser for its shape (`new Function`), which pays back over
 * many parses and is wasted on one: it was most of zod's ~14 ms in a route group's first request
 * (docs/performance.md). What every request parses (its body, the stream's events) keeps the generated parsers.
 */
export const PARSED_RARELY = { jitless: true } as const;
