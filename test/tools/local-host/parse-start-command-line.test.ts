import { describe, expect, it } from 'vitest';
import { parseStartCommandLine, START_USAGE } from '../../../tools/local-host/parse-start-command-line.ts';

describe('parseStartCommandLine', () => {
  it('starts on 127.0.0.1:8787 with ./.gateway and the handlers’ defaults when nothing is set', () => {
    expect(parseStartCommandLine([], {})).toEqual({
      kind: 'start',
      settings: { port: 8787, hostname: '127.0.0.1', dataDir: './.gateway', consoleUser: 'admin@localhost', quiet: false, handlerSettings: {} },
    });
  });

  it("passes the handlers' settings of the README's table from the environment, and nothing else of it", () => {
    const env = {
      GATEWAY_UPSTREAM_FIRST_BYTE_TIMEOUT_MS: '1000',
      GATEWAY_REQUEST_DEADLINE_MS: '5000',
      GATEWAY_HEARTBEAT_INTERVAL_MS: '250',
      GATEWAY_MCP_UPSTREAM_TIMEOUT_MS: '2000',
      GATEWAY_MOCK_WORD_DELAY_MS: '0',
      GATEWAY_GENERATION_RETENTION_DAYS: '7',
    };
    const commandLine = parseStartCommandLine([], { ...env, GATEWAY_KEYS_TABLE: 'other', GATEWAY_ALLOW_PRIVATE_UPSTREAMS: 'false', PATH: '/usr/bin' });
    expect(commandLine).toMatchObject({ kind: 'start', settings: { handlerSettings: env } });
  });

  it('takes PORT, HOST, the data directory, the console user and quiet (flag or variable)', () => {
    const env = { PORT: '0', HOST: '::1', GATEWAY_DATA_DIR: '/tmp/gw', GATEWAY_CONSOLE_USER: ' Me@Example.com ', GATEWAY_QUIET: '1' };
    expect(parseStartCommandLine([], env)).toMatchObject({ kind: 'start', settings: { port: 0, hostname: '::1', dataDir: '/tmp/gw', consoleUser: 'me@example.com', quiet: true } });
    expect(parseStartCommandLine(['-q'], {})).toMatchObject({ settings: { quiet: true } });
    expect(parseStartCommandLine(['--quiet'], {})).toMatchObject({ settings: { quiet: true } });
  });

  it('answers -h and --help with the usage, which lists every setting with its default', () => {
    expect(parseStartCommandLine(['-h'], {})).toEqual({ kind: 'help', text: START_USAGE });
    expect(parseStartCommandLine(['--quiet', '--help'], { PORT: 'abc' })).toEqual({ kind: 'help', text: START_USAGE });
    expect(START_USAGE).toMatch(/^ {2}GATEWAY_HEARTBEAT_INTERVAL_MS +15000 +SSE keep-alive/m);
    expect(START_USAGE).toMatch(/^ {2}GATEWAY_GENERATION_RETENTION_DAYS +90 /m);
  });

  it('refuses a bad PORT, HOST or handler setting in one line naming the variable and its value', () => {
    const refusal = (env: Record<string, string>) => {
      const commandLine = parseStartCommandLine([], env);
      if (commandLine.kind !== 'usage-error') throw new Error(`not refused: ${JSON.stringify(commandLine)}`);
      expect(commandLine.text).not.toContain('\n');
      return commandLine.text;
    };
    expect(refusal({ PORT: 'abc' })).toBe('error: PORT="abc": expected a port number from 0 to 65535 (npm start -- --help lists the options and settings)');
    expect(refusal({ PORT: '65536' })).toMatch(/^error: PORT="65536": expected a port number/);
    expect(refusal({ PORT: '80 ' })).toMatch(/^error: PORT="80 ": expected a port number/);
    expect(refusal({ HOST: '' })).toMatch(/^error: HOST="": expected an IP address or a host name/);
    expect(refusal({ HOST: 'http://localhost' })).toMatch(/^error: HOST="http:\/\/localhost": expected an IP address or a host name/);
    expect(refusal({ GATEWAY_HEARTBEAT_INTERVAL_MS: 'abc' })).toMatch(/^error: GATEWAY_HEARTBEAT_INTERVAL_MS="abc": .*expected number/);
    expect(refusal({ GATEWAY_REQUEST_DEADLINE_MS: '0' })).toMatch(/^error: GATEWAY_REQUEST_DEADLINE_MS="0": Too small/);
    expect(refusal({ GATEWAY_MOCK_WORD_DELAY_MS: '-1', PORT: 'x' })).toMatch(/PORT="x": .*; GATEWAY_MOCK_WORD_DELAY_MS="-1": Too small/);
  });

  it('refuses an unknown option', () => {
    expect(parseStartCommandLine(['--port', '80'], {})).toMatchObject({ kind: 'usage-error', text: expect.stringMatching(/^error: Unknown option '--port'/) });
  });
});
