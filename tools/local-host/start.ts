import { z } from 'zod';
import { startLocalHost } from './local-host.ts';
import { DEFAULT_LOCAL_CONSOLE_MEMBER } from './console-host.ts';
import { seedDemoProject } from './seed-demo.ts';

/** `npm start`: the gateway on this machine, no AWS account needed. */
const environment = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8787),
    HOST: z.string().default('127.0.0.1'),
    GATEWAY_DATA_DIR: z.string().default('./.gateway'),
    /** Who the console sign-in link printed below signs in (a member id, e.g. an e-mail address). */
    GATEWAY_CONSOLE_USER: z.string().trim().toLowerCase().regex(/^[^\s/#]+$/).default(DEFAULT_LOCAL_CONSOLE_MEMBER),
  })
  .parse(process.env);

const host = await startLocalHost({ port: environment.PORT, hostname: environment.HOST, dataDir: environment.GATEWAY_DATA_DIR });
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
}

console.log(`Console (signs in ${environment.GATEWAY_CONSOLE_USER}; the link works once, for 24 hours; restart for a new one):

  ${host.consoleSignInLink(environment.GATEWAY_CONSOLE_USER)}
`);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    void host.close().then(() => process.exit(0));
  });
}
