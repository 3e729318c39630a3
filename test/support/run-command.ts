import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command of the project (e.g. `npm run --silent admin -- …`) as a user would, in its own process. */
export function runCommand(command: string, args: string[], env: Record<string, string> = {}): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: projectRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts a long-running command and resolves once its output matches `ready`. */
export function startCommand(command: string, args: string[], env: Record<string, string>, ready: RegExp, timeoutMs = 20_000) {
  const child: ChildProcess = spawn(command, args, { cwd: projectRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const started = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready after ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve(output);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${String(code)} before it was ready:\n${output}`));
    });
  });
  const stop = async () => {
    const groupId = child.pid;
    if (groupId === undefined) return;
    try {
      // The whole process group: npm and the gateway's node, which may outlive npm while it closes (removing
      // its host file, flushing its queue). Stopped means no process of the group is left.
      process.kill(-groupId, 'SIGTERM');
    } catch {
      // No process of the group is left.
    }
    await processGroupGone(groupId);
  };
  return { started, stop, output: () => output, child };
}

/** Resolves once no process of the group is left (a signal 0 to it fails); throws after `timeoutMs`. */
export async function processGroupGone(groupId: number, timeoutMs = 10_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    try {
      process.kill(-groupId, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the process group ${groupId} is still there ${timeoutMs} ms after it was stopped`);
}
