import { modelArgument, projectIdArgument, type CliCommand } from './cli-command.ts';
import { oneOf, positiveInteger, text } from './flag-values.ts';
import { PRICE_BOUND, priceFlags, UNIT_PRICE_FIELDS } from './price-flags.ts';

export const modelCommands: CliCommand[] = [
  {
    group: 'model',
    verb: 'allow',
    event: 'model.allow',
    summary: "Add a model to a project's allowlist, or change its alias, prices or limits",
    details:
      'The provider must be configured on the project first (provider set). Flags not given keep their ' +
      "current value; prices not set fall back to the organisation's rate card (ratecard set), then 0; a price given alone (say the cache-write price) keeps the others the model was billed at, the project's or the organisation's. " +
      'Known models get their published context length and max output tokens by default (docs/decisions/model-limits.md). ' +
      PRICE_BOUND,
    arguments: [projectIdArgument, modelArgument],
    flags: [
      { name: '--alias', value: 'NAME', description: 'another name clients may use for the model', field: 'alias', parse: text },
      ...priceFlags(false),
      { name: '--context-length', value: 'N', description: 'tokens of prompt and answer together, shown in /v1/models', field: 'contextLength', parse: positiveInteger },
      { name: '--max-output-tokens', value: 'N', description: 'most tokens of an answer, shown in /v1/models', field: 'maxOutputTokens', parse: positiveInteger },
      { name: '--description', value: 'TEXT', description: 'shown in /v1/models', field: 'description', parse: text },
      { name: '--kind', value: 'KIND', description: 'what the model does: chat (default), embedding, image, audio, rerank, video or moderation', field: 'kind', parse: oneOf(['chat', 'embedding', 'image', 'audio', 'rerank', 'video', 'moderation']) },
      {
        name: '--upstream-api',
        value: 'chat|responses|any',
        description: 'the one OpenAI API that serves the model (responses: a Responses-only model, which chat and messages clients reach through translation); any clears it',
        field: 'upstreamApi',
        parse: oneOf(['chat', 'responses', 'any']),
      },
      {
        name: '--reasoning',
        value: 'yes|no|auto',
        description:
          "whether the model reasons as OpenAI's o-series and GPT-5 do (translated requests get reasoning_effort, no temperature, top_p or stop), for an Azure deployment whose name hides it or a reasoning model its id does not tell (gpt-oss on Groq); auto (the default) tells by the model id",
        field: 'reasoning',
        parse: oneOf(['yes', 'no', 'auto']),
      },
    ],
    examples: [
      'model allow acme mock/echo --alias fast --input-micros-per-1k 150 --output-micros-per-1k 600',
      'model allow acme openai/gpt-4o-mini --input-micros-per-1k 150 --output-micros-per-1k 600 --cached-input-micros-per-1k 75',
      'model allow acme vllm/qwen3-8b --context-length 32768 --max-output-tokens 8192',
      'model allow acme openai/text-embedding-3-small --kind embedding --input-micros-per-1k 20',
      'model allow acme openai/o3-pro --upstream-api responses --input-micros-per-1k 20000 --output-micros-per-1k 80000',
      'model allow acme azure/prod-chat --reasoning yes --max-output-tokens 128000',
    ],
    prints: 'the project as JSON, with the model, its prices and limits',
  },
  {
    group: 'model',
    verb: 'list',
    event: 'model.list',
    summary: "List a project's allowlist with prices and limits",
    arguments: [projectIdArgument],
    flags: [],
    examples: ['model list acme --output table'],
    prints:
      '{"models": [{slug, provider, model, alias, kind, input_price_micros_per_1k, output_price_micros_per_1k, cached_input_price_micros_per_1k, ' +
      `cache_write_input_price_micros_per_1k, cache_write_1h_input_price_micros_per_1k, ${UNIT_PRICE_FIELDS}, price_source, context_length, max_output_tokens, description, upstream_api, reasoning, reasoning_source}]}, ` +
      'sorted by slug; a price beyond tokens (?) only when set',
  },
  {
    group: 'model',
    verb: 'remove',
    event: 'model.remove',
    summary: 'Remove a model from the allowlist, with its project prices',
    arguments: [projectIdArgument, modelArgument],
    flags: [],
    examples: ['model remove acme openai/gpt-4o-mini'],
    prints: 'the project as JSON',
  },
  {
    group: 'ratecard',
    verb: 'set',
    event: 'ratecard.set',
    summary: "Set the organisation's default prices of a model (a project's own prices win)",
    details: `The input and output prices are given each time; the other prices not given keep the model's current ones. ${PRICE_BOUND}`,
    arguments: [{ ...modelArgument }],
    flags: priceFlags(true),
    examples: ['ratecard set openai/gpt-4o-mini --input-micros-per-1k 150 --output-micros-per-1k 600'],
    prints: 'the rate card as JSON, as ratecard list prints it',
  },
  {
    group: 'ratecard',
    verb: 'list',
    event: 'ratecard.list',
    summary: "List the organisation's rate card",
    arguments: [],
    flags: [],
    examples: ['ratecard list'],
    prints:
      '{"rates": [{slug, input_price_micros_per_1k, output_price_micros_per_1k, cached_input_price_micros_per_1k, ' +
      `cache_write_input_price_micros_per_1k, cache_write_1h_input_price_micros_per_1k, ${UNIT_PRICE_FIELDS}}]}; a price beyond tokens (?) only when set`,
  },
];
