/**
 * Runs a CLI's `main` with the process's arguments: its answer is the exit code, a failure one line on
 * stderr and code 1. exitCode rather than exit(): a large answer drains into a pipe before the process ends.
 */
export function runCli(main: (args: string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}
