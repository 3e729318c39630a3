import { FIRST_REQUESTS, INIT_PRELOAD, startFirstRequestWorld, timeInit } from './lib/first-request.ts';
import { writeFile } from 'node:fs/promises';
await writeFile('/tmp/bo/init-stub.mjs', INIT_PRELOAD);
const world = await startFirstRequestWorld();
try {
  if (process.env.PROF) world.env.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=/tmp/bo/prof --cpu-prof-interval 50`;
  for (let i = 0; i < Number(process.argv[2] ?? 3); i++) console.log(JSON.stringify(await timeInit('/tmp/bo/openai/index.mjs', '/tmp/bo/init-stub.mjs', world, FIRST_REQUESTS.openai!)));
} finally { await world.close(); }
