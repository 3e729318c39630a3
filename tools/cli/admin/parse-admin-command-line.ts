import { CommanderError } from 'commander';
import { buildAdminProgram, type OutputFormat } from './build-admin-program.ts';

export type AdminCommandLine =
  /** A command to send to the admin function. */
  | { kind: 'command'; event: Record<string, unknown>; output: OutputFormat }
  /** Help that was asked for: stdout, exit code 0. */
  | { kind: 'help'; text: string }
  /** A command line that is wrong: the error and one hint line (or the help of a bare group) for stderr, exit code 2. */
  | { kind: 'usage-error'; text: string };

/** Parses the admin CLI's arguments (what follows `npm run --silent admin --`) without running anything. */
export function parseAdminCommandLine(argv: readonly string[]): AdminCommandLine {
  const written = { out: '', err: '' };
  let chosen: { event: Record<string, unknown>; output: OutputFormat } | undefined;
  const program = buildAdminProgram(written, (event, output) => {
    chosen = { event, output };
  });
  try {
    program.parse([...argv], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    return error.exitCode === 0 ? { kind: 'help', text: written.out } : { kind: 'usage-error', text: written.err };
  }
  if (!chosen) return { kind: 'usage-error', text: written.err || 'error: no command given\n' };
  return { kind: 'command', ...chosen };
}
