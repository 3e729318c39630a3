import * as z from 'zod';
import { awsRegionSchema } from '../core/bedrock-models.ts';
import { hasControlCharacter } from '../core/control-characters.ts';
import { MAX_PRICE_MICROS } from '../core/money-limits.ts';
import { MAX_NAME_LENGTH } from '../core/name-length.ts';
import { memberIdSchema, projectRoleSchema } from '../core/membership.ts';
import { projectIdSchema, providerNameSchema, modelKindSchema, providerFamilySchema } from '../core/project-config.ts';
import { mcpServerNameSchema, newMcpServerNameSchema } from '../core/mcp-names.ts';
import { headerNameSchema } from '../core/mcp-server-config.ts';
import { usdAmountProblem } from '../core/price-usage.ts';
import type { UnitPriceCommandField } from '../core/unit-prices.ts';
import type { LongContextPriceCommandField } from '../core/long-context-prices.ts';

/** Prices are bounded so that a request's cost stays exact (money-limits.ts). */
const PRICE_BOUND = `prices are at most ${MAX_PRICE_MICROS} micro-USD (100 USD per 1,000 tokens, per 1,000 characters or per unit)`;
const slugSchema = z.string().regex(/^[a-z0-9][a-z0-9_-]*\/\S+$/, 'models are named <provider>/<model>');
const micros = z.number().int().nonnegative().max(MAX_PRICE_MICROS, PRICE_BOUND);
const positiveOrNone = z.union([z.literal('none'), z.number().int().positive()]);
const listOrNone = z.union([z.literal('none'), z.array(z.string().min(1)).min(1)]);
const memberSchema = memberIdSchema;
const usdAmount = z.string().superRefine((amount, context) => {
  const problem = usdAmountProblem(amount);
  if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
});
const namespacedToolSchema = z.string().regex(/^[a-z0-9-]+__.+$/, 'tools are named <server>__<tool>, as tools/list shows them');
/** A project's or key's name: text a person reads, bounded, with nothing a terminal would act on (a console member names their keys). */
const nameSchema = z
  .string()
  .max(MAX_NAME_LENGTH, `names are at most ${MAX_NAME_LENGTH} characters`)
  .refine((name) => !hasControlCharacter(name), 'names must not contain control characters (ESC, BEL, line breaks, tabs, DEL, C1) or bidirectional marks');
const aliasSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/, 'aliases are letters, digits, ".", "_", ":" and "-"');

/** The prices beyond tokens (unit-prices.ts), each optional, on `model allow` and `ratecard set`. */
const unitPriceFields = {
  requestMicros: micros.optional(),
  imageMicros: micros.optional(),
  audioSecondMicros: micros.optional(),
  characterMicrosPer1k: micros.optional(),
  searchUnitMicros: micros.optional(),
  videoSecondMicros: micros.optional(),
  webSearchMicros: micros.optional(),
} satisfies Record<UnitPriceCommandField, z.ZodType>;

/** The long-context tier (long-context-prices.ts) on `model allow` and `ratecard set`: its threshold (`none` removes it) and prices. */
const longContextFields = {
  longContextAboveTokens: positiveOrNone.optional(),
  longContextInputMicrosPer1k: micros.optional(),
  longContextOutputMicrosPer1k: micros.optional(),
  longContextCachedInputMicrosPer1k: micros.optional(),
  longContextCacheWriteInputMicrosPer1k: micros.optional(),
  longContextCacheWrite1hInputMicrosPer1k: micros.optional(),
} satisfies Record<LongContextPriceCommandField | 'longContextAboveTokens', z.ZodType>;

/** The admin function's event: one command, validated at the boundary. The CLI builds these. */
export const adminCommandSchema = z.discriminatedUnion('command', [
  z.object({ command: z.literal('project.create'), projectId: projectIdSchema, name: nameSchema.optional() }),
  z.object({ command: z.literal('project.get'), projectId: projectIdSchema }),
  z.object({ command: z.literal('project.list') }),
  z.object({
    command: z.literal('project.update'),
    projectId: projectIdSchema,
    name: nameSchema.optional(),
    plan: z.enum(['active', 'inactive']).optional(),
    usageInjection: z.boolean().optional(),
    failover: z.boolean().optional(),
    mcp: z.boolean().optional(),
    passThrough: z.boolean().optional(),
    /** A USD decimal, or "none" for a postpaid project. */
    balanceUsd: z.union([z.literal('none'), usdAmount]).optional(),
    creditUsd: usdAmount.optional(),
    rpm: positiveOrNone.optional(),
    tpm: positiveOrNone.optional(),
    firstByteTimeoutMs: positiveOrNone.optional(),
    deadlineMs: positiveOrNone.optional(),
    allowedCidrs: listOrNone.optional(),
    allowedEnvironments: listOrNone.optional(),
    allowedEndpoints: listOrNone.optional(),
  }),
  z.object({ command: z.literal('member.add'), projectId: projectIdSchema, member: memberSchema, role: projectRoleSchema.default('member') }),
  z.object({ command: z.literal('member.list'), projectId: projectIdSchema }),
  z.object({ command: z.literal('member.remove'), projectId: projectIdSchema, member: memberSchema }),
  z.object({ command: z.literal('member.restore'), projectId: projectIdSchema, member: memberSchema }),
  z.object({
    command: z.literal('provider.set'),
    projectId: projectIdSchema,
    provider: providerNameSchema,
    apiKey: z.string().min(1).optional(),
    baseUrl: z.string().optional(),
    protocol: providerFamilySchema.optional(),
    /** Whether OpenAI-protocol requests to `/responses` go to the provider as they are, or are translated to chat. */
    responses: z.enum(['native', 'translate']).optional(),
    /** The rerank dialect an OpenAI-protocol provider also serves at `/rerank` (`none`: it does not rerank). */
    rerank: z.enum(['cohere', 'jina', 'voyage', 'none']).optional(),
    /** A Bedrock provider's region (its runtime endpoint and signing region). */
    region: awsRegionSchema.optional(),
    /** A Bedrock provider's signing profile (local AWS configuration); absent, the default chain. */
    profile: z.string().regex(/^[A-Za-z0-9_.@+=,-]{1,128}$/, 'profile names are letters, digits and _.@+=,-').optional(),
  }),
  z.object({ command: z.literal('provider.list'), projectId: projectIdSchema }),
  z.object({ command: z.literal('provider.remove'), projectId: projectIdSchema, provider: providerNameSchema }),
  z.object({
    command: z.literal('model.allow'),
    projectId: projectIdSchema,
    slug: slugSchema,
    alias: aliasSchema.optional(),
    inputMicrosPer1k: micros.optional(),
    outputMicrosPer1k: micros.optional(),
    cachedInputMicrosPer1k: micros.optional(),
    cacheWriteInputMicrosPer1k: micros.optional(),
    cacheWrite1hInputMicrosPer1k: micros.optional(),
    ...unitPriceFields,
    ...longContextFields,
    kind: modelKindSchema.optional(),
    /** Tokens; absent, the known-models table's value (or unknown) applies. */
    contextLength: z.number().int().positive().optional(),
    maxOutputTokens: z.number().int().positive().optional(),
    description: z.string().min(1).max(1000).optional(),
    /** The one OpenAI API that serves the model (`any` clears it: every protocol of its provider). */
    upstreamApi: z.enum(['chat', 'responses', 'any']).optional(),
    /** Whether the model is one of OpenAI's reasoning kind (`auto` clears the mark: told by its id). */
    reasoning: z.enum(['yes', 'no', 'auto']).optional(),
  }),
  z.object({ command: z.literal('model.remove'), projectId: projectIdSchema, slug: slugSchema }),
  z.object({ command: z.literal('model.list'), projectId: projectIdSchema }),
  z.object({
    command: z.literal('ratecard.set'),
    slug: slugSchema,
    inputMicrosPer1k: micros,
    outputMicrosPer1k: micros,
    cachedInputMicrosPer1k: micros.optional(),
    cacheWriteInputMicrosPer1k: micros.optional(),
    cacheWrite1hInputMicrosPer1k: micros.optional(),
    ...unitPriceFields,
    ...longContextFields,
  }),
  z.object({ command: z.literal('ratecard.list') }),
  z.object({
    command: z.literal('key.create'),
    projectId: projectIdSchema,
    name: nameSchema.optional(),
    member: memberSchema.optional(),
    rpm: z.number().int().positive().optional(),
  }),
  z.object({
    command: z.literal('key.update'),
    projectId: projectIdSchema,
    keyId: z.string().min(1),
    name: nameSchema.optional(),
    enabled: z.boolean().optional(),
    rpm: positiveOrNone.optional(),
    /**
     * The tool bridge's servers and tools the key may reach: a list (empty: none, so `mcpServers: []` is no
     * MCP access), or "all" to lift the restriction. "none" lifted it once, and is refused rather than read
     * the other way.
     */
    mcpServers: z.union([z.literal('all'), z.array(mcpServerNameSchema)]).optional(),
    mcpTools: z.union([z.literal('all'), z.array(namespacedToolSchema)]).optional(),
  }),
  z.object({ command: z.literal('key.list'), projectId: projectIdSchema }),
  z.object({
    command: z.literal('mcp.add'),
    projectId: projectIdSchema,
    name: newMcpServerNameSchema,
    url: z.string().min(1),
    /** Sent with every request to the server; the values go to the secret store only. */
    headers: z.array(z.object({ name: headerNameSchema, value: z.string().min(1).max(8192) })).max(32).optional(),
  }),
  z.object({ command: z.literal('mcp.list'), projectId: projectIdSchema }),
  z.object({ command: z.literal('mcp.remove'), projectId: projectIdSchema, name: mcpServerNameSchema }),
  z.object({ command: z.literal('key.revoke'), projectId: projectIdSchema, keyId: z.string().min(1) }),
  z.object({ command: z.literal('audit.list'), projectId: projectIdSchema, limit: z.number().int().min(1).max(500).default(50) }),
]);
export type AdminCommand = z.infer<typeof adminCommandSchema>;
export type AdminCommandName = AdminCommand['command'];

/** The admin function's answer. Errors carry an HTTP-like status so the CLI can tell kinds apart. */
export type AdminResult =
  | { ok: true; result: unknown }
  | { ok: false; error: { status: number; code: string; message: string } };
