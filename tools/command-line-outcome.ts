/** What parsing a command line may end in besides the command itself. */
export type HelpOrUsageError = { kind: 'help'; text: string } | { kind: 'usage-error'; text: string };

function isHelpOrUsageError(commandLine: { kind: string }): commandLine is HelpOrUsageError {
  return commandLine.kind === 'help' || commandLine.kind === 'usage-error';
}

/**
 * Ends the process on `--help` (the usage on stdout, exit 0) or a usage error (the message on stderr,
 * exit 2), as every command-line entry point does; otherwise gives the parsed command back.
 */
export function commandOrExit<Command extends { kind: string }>(commandLine: Command | HelpOrUsageError): Command {
  if (!isHelpOrUsageError(commandLine)) return commandLine;
  if (commandLine.kind === 'help') console.log(commandLine.text);
  else console.error(commandLine.text);
  return process.exit(commandLine.kind === 'help' ? 0 : 2);
}
