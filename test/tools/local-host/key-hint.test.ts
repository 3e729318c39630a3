import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeHowToGetAKey, quoteForShell } from '../../../tools/local-host/key-hint.ts';

/** The admin function's answer to project.list, with these projects. */
const projectsAre = (...ids: string[]) => async () => ({ ok: true, result: { projects: ids.map((id) => ({ id })) } });

describe('describeHowToGetAKey', () => {
  it('prints the bare admin command for the default data directory', async () => {
    const hint = await describeHowToGetAKey(projectsAre('acme', 'demo'), './.gateway');
    expect(hint).toMatch(/\n\n {2}npm run --silent admin -- key create demo --name laptop$/);
    expect(await describeHowToGetAKey(projectsAre('acme'), resolve('.gateway'))).toMatch(/\n\n {2}npm run --silent admin -- key create acme --name laptop$/);
  });

  it('names any other data directory in the command, so that it reaches the gateway running there', async () => {
    expect(await describeHowToGetAKey(projectsAre('demo'), '/srv/gateway-data')).toMatch(
      /\n\n {2}GATEWAY_DATA_DIR=\/srv\/gateway-data npm run --silent admin -- key create demo --name laptop$/,
    );
    expect(await describeHowToGetAKey(projectsAre(), './.gateway-2')).toBe(
      `No project yet: create one with "GATEWAY_DATA_DIR=${resolve('.gateway-2')} npm run --silent admin -- project create <projectId>" (README: A 5-minute tour).`,
    );
    expect(await describeHowToGetAKey(projectsAre('demo'), "/tmp/my data's")).toContain(`GATEWAY_DATA_DIR='/tmp/my data'\\''s' npm run`);
  });
});

describe('quoteForShell', () => {
  it('leaves a plain path as it is and quotes anything else so that a shell reads it back unchanged', () => {
    expect(quoteForShell('/home/ana/.gateway-2')).toBe('/home/ana/.gateway-2');
    for (const text of ["/tmp/my data's", '/tmp/$HOME;`rm`', '/tmp/a"b\\c', '/tmp/*?[]~!#&|<>()', '/tmp/é']) {
      expect(execFileSync('sh', ['-c', `printf %s ${quoteForShell(text)}`], { encoding: 'utf8' })).toBe(text);
    }
  });
});
