import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';

/**
 * Loaded with `--import` into the process to profile: SIGUSR2 starts the V8 CPU profiler, the next
 * SIGUSR2 stops it and writes the profile to BENCH_PROFILE_FILE, so exactly the measured window is
 * profiled (`--cpu-prof` only writes at exit, which a gateway draining its usage backlog reaches late).
 */
const target = process.env.BENCH_PROFILE_FILE;
if (target) {
  const session = new Session();
  session.connect();
  let running = false;
  process.on('SIGUSR2', () => {
    void (async () => {
      if (!running) {
        running = true;
        await session.post('Profiler.enable');
        await session.post('Profiler.setSamplingInterval', { interval: 200 });
        await session.post('Profiler.start');
        return;
      }
      running = false;
      const { profile } = await session.post('Profiler.stop');
      await writeFile(target, JSON.stringify(profile));
      console.log('bench profile written');
    })();
  });
}
