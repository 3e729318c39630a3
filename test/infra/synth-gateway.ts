import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { GatewayStack, type GatewayStackProps } from '../../infra/gateway-stack.ts';
import { PROJECT_ROOT } from '../../infra/bundling/handler-code.ts';
import { temporaryDirectory } from '../support/temporary-directories.ts';

export interface SynthesizedGateway {
  app: App;
  stack: GatewayStack;
  template: Template;
  /** The whole template as JSON text, for searches. */
  json: string;
  /** The cloud assembly directory: the bundled assets live in `asset.<hash>/`. */
  outdir: string;
}

export const TEST_ENV = { account: '123456789012', region: 'us-east-1' };

/**
 * What a test that synthesizes a stack is given: bundling nine functions takes 15–25 s on a busy 2-core
 * machine, beyond vitest's 20 s a test (vitest.config.ts gives hooks as long).
 */
export const SYNTHESIS_TIMEOUT_MS = 120_000;

/**
 * Synthesizes the gateway as `cdk synth` does (cdk.json's context, real bundling), once per call: call it
 * in `beforeAll`. Bundling runs esbuild three times, so each test file synthesizes as few stacks as it can.
 */
export function synthesizeGateway(props: GatewayStackProps = {}): SynthesizedGateway {
  const cdkJson = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  const outdir = temporaryDirectory('gateway-cdk-');
  const app = new App({ outdir, context: cdkJson.context });
  const stack = new GatewayStack(app, 'ModelGateway', { env: TEST_ENV, ...props });
  const template = Template.fromStack(stack);
  return { app, stack, template, json: JSON.stringify(template.toJSON()), outdir };
}

/** Logical id → resource of one type. */
export function resourcesOfType(template: Template, type: string): Record<string, { Properties: Record<string, unknown> }> {
  return template.findResources(type) as Record<string, { Properties: Record<string, unknown> }>;
}

/** The logical id of the one resource of `type` whose id starts with `prefix` (construct ids are stable). */
export function logicalId(template: Template, type: string, prefix: string): string {
  const ids = Object.keys(template.findResources(type)).filter((id) => id.startsWith(prefix));
  if (ids.length !== 1) throw new Error(`Expected one ${type} named ${prefix}…, found ${ids.join(', ') || 'none'}`);
  return ids[0] as string;
}
