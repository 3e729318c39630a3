import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';

/**
 * Loaded with `--import` into a gateway the bench starts with an IPC channel. It does nothing until the
 * bench asks over that channel:
 * - `{ probe: 'memory' }`: collects garbage (with --expose-gc) and answers process.memoryUsage(), so the
 *   memory an open stream really holds can be told from garbage the load left behind;
 * - `{ probe: 'profile-start' }` / `{ probe: 'profile-stop', file }`: the V8 CPU profiler over exactly the
 *   measured window (`--cpu-prof` writes only at exit, which a gateway draining its usage backlog reaches late).
 */
interface ProbeRequest {
  probe: 'memory' | 'profile-start' | 'profile-stop';
  file?: string;
}

let session: Session | undefined;
const collect = (globalThis as { gc?: () => void }).gc;

async function answer(request: ProbeRequest): Promise<unknown> {
  if (request.probe === 'memory') {
    collect?.();
    collect?.();
    return { ...process.memoryUsage(), collected: collect !== undefined };
  }
  if (request.probe === 'profile-start') {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
    return { started: true };
  }
  if (!session || !request.file) return { error: 'no profile running' };
  const { profile } = await session.post('Profiler.stop');
  await writeFile(request.file, JSON.stringify(profile));
  session.disconnect();
  session = undefined;
  return { written: request.file };
}

if (process.send) {
  process.on('message', (message: unknown) => {
    const request = message as ProbeRequest;
    void answer(request).then(
      (result) => process.send?.({ probe: request.probe, result }),
      (error: unknown) => process.send?.({ probe: request.probe, result: { error: String(error) } }),
    );
  });
  // The channel must not keep the gateway alive once it wants to exit.
  process.channel?.unref();
}
