import '../check-node-version.js';
import { commandOrExit } from '../command-line-outcome.ts';
import { describeHowToGetAKey } from './key-hint.ts';
import { LocalHostError, SHUTDOWN_GRACE_MS, startLocalHost } from './local-host.ts';
import { parseStartCommandLine } from './parse-start-command-line.ts';
import { seedDemoProject } from './seed-demo.ts';

/** `npm start`: the gateway on this machine, no AWS account needed. `-- --help` lists its options and settings. */
const commandLine = commandOrExit(parseStartCommandLine(process.argv.slice(2), process.env));
const { settings } = commandLine;
const { quiet } = settings;

const host = await startLocalHost({
  port: settings.port,
  hostname: settings.hostname,
  dataDir: settings.dataDir,
  env: settings.handlerSettings,
  report: (line: string) => console.log(line),
  ...(quiet ? {} : { logRequest: (line: string) => console.log(line) }),
}).catch((error: unknown) => {
  // What the person can fix is said in one line; anything else keeps its trace.
  if (error instanceof LocalHostError) console.error(`error: ${error.message}`);
  else console.error(error);
  process.exit(error instanceof LocalHostError && error.wrongOption ? 2 : 1);
});
console.log(`Model gateway listening on ${host.url} (data in ${host.dataDir})`);
console.log(`  OpenAI-compatible base URL: ${host.url}/v1`);

if (host.startedEmpty) {
  const demo = await seedDemoProject(host.invokeAdmin, settings.consoleUser);
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
  console.log(`\n${await describeHowToGetAKey(host.invokeAdmin, host.dataDir)}\n`);
}
console.log(`Console (signs in ${settings.consoleUser}; the link works once, for 24 hours; restart for a new one):

  ${host.consoleSignInLink(settings.consoleUser)}
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
    void host.close().then(({ cutOff }) => {
      // The last line says how it ended: a client whose request was cut sees only its connection close.
      console.log(cutOff > 0 ? `Stopped: ${cutOff} request(s) still running were cut off; those sent to a provider are metered as interrupted on the next start.` : 'Stopped.');
      process.exit(0);
    });
  });
}
