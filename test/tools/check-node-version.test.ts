import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { nodeVersionProblem } from '../../tools/check-node-version.js';
import { projectRoot, runCommand } from '../support/run-command.ts';

describe('nodeVersionProblem', () => {
  it('explains in one line which Node is needed and how to get it', () => {
    const problem = nodeVersionProblem('20.19.0', '>=24');
    expect(problem).toBe(
      'This project needs Node.js 24 or newer, but this is Node.js 20.19.0: run "source .ci/use-node24.sh" (Linux x64) or "nvm install 24", then try again.',
    );
    expect(problem).not.toContain('\n');
  });

  it.each(['24.0.0', '24.21.0', '25.1.0'])('accepts Node %s for ">=24"', (version) => {
    expect(nodeVersionProblem(version, '>=24')).toBeUndefined();
  });
});

describe('the Node version check', () => {
  it('runs before every entry point of package.json', async () => {
    const manifest = JSON.parse(await readFile(`${projectRoot}package.json`, 'utf8')) as { scripts: Record<string, string>; engines: { node: string } };
    for (const script of ['install', 'start', 'admin', 'usage', 'test', 'bench']) {
      expect(manifest.scripts[`pre${script}`], script).toBe('node tools/check-node-version.js');
    }
    expect(manifest.engines.node).toBe('>=24');
  });

  it('stops an older Node with that line on stderr and exit code 1', async () => {
    const pretendNode20 = `Object.defineProperty(process.versions, 'node', { value: '20.19.0' }); await import('./tools/check-node-version.js');`;
    const result = await runCommand(process.execPath, ['--input-type=module', '-e', pretendNode20]);
    expect(result).toEqual({ code: 1, stdout: '', stderr: `error: ${nodeVersionProblem('20.19.0', '>=24') ?? ''}\n` });
  });

  it('lets this Node through silently', async () => {
    expect(await runCommand(process.execPath, ['tools/check-node-version.js'])).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});
