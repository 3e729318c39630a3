/**
 * How a model behind the Messages protocol takes thinking:
 * - `budget`: `thinking: {type: "enabled", budget_tokens}`, the only form Claude 4.5 and older know;
 * - `adaptive`: `thinking: {type: "adaptive"}` with `output_config.effort`, the only form Claude Opus 4.7
 *   and every later model accepts (they answer `enabled` with a 400), and the recommended one on Claude
 *   Opus 4.6 and Sonnet 4.6, where `enabled` is deprecated. `xhigh` says whether the model has that effort
 *   level (Claude 4.7 and later, Mythos Preview excepted).
 * - `none`: Claude 3.5 and older (all but Claude 3.7 Sonnet of the older naming), which have no thinking and
 *   answer `thinking` with a 400.
 * Sources: docs/decisions/messages-and-translation.md.
 */
export type ThinkingMode = { type: 'budget' } | { type: 'adaptive'; xhigh: boolean } | { type: 'none' };

const BUDGET: ThinkingMode = { type: 'budget' };

/** Claude models before extended thinking: Claude 3 and 3.5 (`claude-3-5-sonnet`, `claude-3-opus`), 2, Instant, Bedrock's `claude-v2`. */
const WITHOUT_THINKING = /claude-(?:3-(?!7-)|2|instant|v\d)/;

/** Ids of Claude's older naming (`claude-3-7-sonnet`, `claude-2.1`, `claude-instant-1.2`, Bedrock's `claude-v2`). */
const OLDER_NAMING = /claude-(?:\d|instant|v\d)/;

/**
 * A family Claude 4.5 and older also had, and its version: `claude-opus-4-6`, `claude-sonnet-4-5-20250929`,
 * `claude-opus-4-20250514` (4.0: a date is no minor version), `anthropic.claude-opus-4-6-v1`, `claude-sonnet-4.6`.
 */
const VERSIONED_FAMILY = /claude-(?:opus|sonnet|haiku)-(\d+)(?:[-.](\d{1,2})(?!\d))?/;

/** Claude models that take adaptive thinking but predate the `xhigh` effort level. */
const WITHOUT_XHIGH = /claude-mythos-preview/;

const atLeast = (major: number, minor: number, [wantMajor, wantMinor]: readonly [number, number]) =>
  major > wantMajor || (major === wantMajor && minor >= wantMinor);

/**
 * The thinking mode for an upstream model id, as Anthropic's API, Bedrock (`anthropic.…`, `us.anthropic.…`
 * inference profiles, their ARNs) and Vertex (`…@date`) name it. Claude models of an older generation (the
 * older naming, or Opus/Sonnet/Haiku before 4.6) keep the budget; every other Claude id is taken for a newer
 * generation (Fable, Mythos, a version from 4.6 on, a family not seen yet), since all models Anthropic has
 * released since 4.7 refuse the budget. An id that names no Claude (another vendor's Anthropic-compatible
 * API, an opaque Bedrock application inference profile) keeps the budget, as before.
 */
export function thinkingModeFor(upstreamModel: string): ThinkingMode {
  if (WITHOUT_THINKING.test(upstreamModel.toLowerCase())) return { type: 'none' };
  const generation = claudeGenerationOf(upstreamModel);
  if (generation === undefined) return BUDGET;
  if (generation === 'unversioned') return { type: 'adaptive', xhigh: !WITHOUT_XHIGH.test(upstreamModel.toLowerCase()) };
  if (!atLeast(...generation, [4, 6])) return BUDGET;
  return { type: 'adaptive', xhigh: atLeast(...generation, [4, 7]) };
}

/**
 * Which of `temperature` and `top_p` a model takes:
 * - `neither`: Claude Opus 4.7 and every later Claude refuse them (and `top_k`) with a 400 (Sonnet 5 a value
 *   other than the default), as do the families without a version (Fable, Mythos), which share Opus 4.7's
 *   request surface;
 * - `either`: Claude Opus 4.1 to 4.6, Sonnet 4.5 and 4.6, Haiku 4.5 refuse the two together ("`temperature`
 *   and `top_p` cannot both be specified for this model");
 * - `both`: Claude 4.0 and older, and an id that names no Claude.
 * Sources: docs/decisions/messages-and-translation.md.
 */
export type SamplingRule = 'neither' | 'either' | 'both';

export function claudeSamplingRule(upstreamModel: string): SamplingRule {
  const generation = claudeGenerationOf(upstreamModel);
  if (generation === undefined) return 'both';
  if (generation === 'unversioned' || atLeast(...generation, [4, 7])) return 'neither';
  return atLeast(...generation, [4, 1]) ? 'either' : 'both';
}

/**
 * Whether the model takes structured outputs (`output_config.format`): Claude 4.5 and later (Haiku, Sonnet
 * and Opus 4.5 and after, as Bedrock lists them), and the families without a version. Sources:
 * docs/decisions/messages-and-translation.md.
 */
export function takesStructuredOutput(upstreamModel: string): boolean {
  const generation = claudeGenerationOf(upstreamModel);
  if (generation === undefined) return false;
  return generation === 'unversioned' || atLeast(...generation, [4, 5]);
}

/** A Claude id's [major, minor] version, `unversioned` for a family without one, undefined for an older naming or no Claude. */
function claudeGenerationOf(upstreamModel: string): readonly [number, number] | 'unversioned' | undefined {
  const id = upstreamModel.toLowerCase();
  if (!id.includes('claude-') || OLDER_NAMING.test(id)) return undefined;
  const versioned = VERSIONED_FAMILY.exec(id);
  if (!versioned) return 'unversioned';
  return [Number(versioned[1]), Number(versioned[2] ?? 0)];
}
