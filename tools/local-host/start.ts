import '../check-node-version.js';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { describeHowToGetAKey } from './key-hint.ts';
import { LocalHostError, SHUTDOWN_GRACE_MS, startLocalHost } from './local-host.ts';
import { DEFAULT_LOCAL_CONSOLE_MEMBER } from './console-host.ts';
import { seedDemoProject } from './seed-demo.ts';

/** `npm start`: the gateway on this machine, no AWS account needed. `-- --quiet` (or GATEWAY_QUIET=1): no line per request. */
const environment = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8787),
    HOST: z.string().default('127.0.0.1'),
    GATEWAY_DATA_DIR: z.string().default('./.gateway'),
    /** Who the console sign-in link printed below signs in (a member id, e.g. an e-mail address). */
    GATEWAY_CONSOLE_USER: z.string().trim().toLowerCase().regex(/^[^\s/#]+$/).default(DEFAULT_LOCAL_CONSOLE_MEMBER),
    GATEWAY_QUIET: z
      .string()
      .optional()
      .transform((value) => ['1', 'true', 'yes', 'on'].includes(value?.toLowerCase() ?? '')),
  })
  .parse(process.env);

let quietFlag: boolean;
try {
  quietFlag = parseArgs({ options: { quiet: { type: 'boolean', short: 'q' } }, strict: true }).values.quiet === true;
} catch (error) {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}\nUsage: npm start [-- --quiet]`);
  process.exit(2);
}
const quiet = quietFlag || environment.GATEWAY_QUIET;

const host = await startLocalHost({
  port: environment.PORT,
  hostname: environment.HOST,
  dataDir: environment.GATEWAY_DATA_DIR,
  ...(quiet ? {} : { logRequest: (line: string) => console.log(line) }),
}).catch((error: unknown) => {
  // What the person can fix is said in one line; anything else keeps its trace.
  if (error instanceof LocalHostError) console.error(`error: ${error.message}`);
  else console.error(error);
  process.exit(1);
});
console.log(`Model gateway listening on ${host.url} (data in ${host.dataDir})`);
console.log(`  OpenAI-compatible base URL: ${host.url}/v1`);

if (host.startedEmpty) {
  const demo = await seedDemoProject(host.invokeAdmin, environment.GATEWAY_CONSOLE_USER);
  console.log(`
First start: created the "${demo.projectId}" project on the built-in OFFLINE MOCK provider
(deterministic answers, no provider account needed) with the model "${demo.model}".

Its project key, shown this once (only its hash is stored):

  ${demo.key}

Try it:

  curl ${host.url}/v1/chat/completions \\
    -H "Authorization: Bearer ${demo.key}" \\
    -H "Content-Type: application/json" \\
    -d '{"model": "${demo.model}", "messages": [{"role": "user", "content": "Hello"}]}'
`);
} else {
  console.log(`\n${await describeHowToGetAKey(host.invokeAdmin)}\n`);
}
console.log(`Console (signs in ${environment.GATEWAY_CONSOLE_USER}; the link works once, for 24 hours; restart for a new one):

  ${host.consoleSignInLink(environment.GATEWAY_CONSOLE_USER)}
`);
if (!quiet) console.log('One line per request follows (npm start -- --quiet or GATEWAY_QUIET=1 turns it off).\n');

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) {
      // A second Ctrl-C: stop now. What was handed over is in the journal, delivered on the next start;
      // a request still running is recorded as interrupted (its provisional record).
      console.log('Stopped at once; the usage handed over is delivered on the next start.');
      process.exit(130);
    }
    closing = true;
    const running = host.requestsInFlight();
    if (running > 0) {
      console.log(`Stopping: waiting up to ${SHUTDOWN_GRACE_MS / 1000} s for ${running} request(s) in flight to be answered and metered (Ctrl-C again stops at once).`);
    }
    void host.close().then(() => process.exit(0));
  });
}
