/** A command line the CLI cannot turn into a command: the message names the flag or argument as typed; exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
