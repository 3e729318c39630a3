import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../infra/bundling/handler-code.ts';
import { routeGroups } from '../../shared/http/route-groups.ts';

const run = promisify(execFile);
const outdir = mkdtempSync(join(tmpdir(), 'gateway-cdk-cli-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe('npx cdk synth', () => {
  it('synthesizes the app offline with the pinned CLI, with no cdk-nag finding', async () => {
    const { stderr } = await run('npx', ['--no-install', 'cdk', 'synth', '--quiet', '--no-notices', '-o', outdir], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: 'true' },
      timeout: 120_000,
    });
    expect(stderr).not.toMatch(/AwsSolutions-/);
    const template = JSON.parse(readFileSync(join(outdir, 'ModelGateway.template.json'), 'utf8')) as { Resources: Record<string, { Type: string }> };
    const types = Object.values(template.Resources).map((resource) => resource.Type);
    // The route groups, the writer, the admin, usage compactor and console functions; CDK's BucketDeployment provider aside.
    const functions = Object.entries(template.Resources).filter(([id, resource]) => resource.Type === 'AWS::Lambda::Function' && !id.startsWith('CustomCDKBucketDeployment'));
    expect(functions).toHaveLength(routeGroups.length + 4);
    expect(types).toContain('AWS::CloudFront::Distribution');
  }, 150_000);

  it('refuses a retired -c flag instead of silently dropping it', async () => {
    const failure = await run('npx', ['--no-install', 'cdk', 'synth', '--quiet', '--no-notices', '-o', outdir, '-c', 'domainName=gateway.example.com'], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: 'true' },
      timeout: 120_000,
    }).then(
      () => undefined,
      (error: { stderr: string }) => error,
    );
    expect(failure?.stderr).toMatch(/infra\/settings\/<env>\.json/);
  }, 150_000);
});
