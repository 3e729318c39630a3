import { readFile } from 'node:fs/promises';
import { parse as parseShellWords } from 'shell-quote';
import { README_FILE } from '../../tools/cli/cli-reference-files.ts';

export interface ReadmeCommand {
  /** `admin` or `usage`: the npm script. */
  cli: 'admin' | 'usage';
  /** The arguments after `--`, split as a shell would, with `$VARIABLES` from `env`. */
  args: string[];
  /** The line as the README shows it, continuations joined. */
  line: string;
  /** The `## ` section it appears in. */
  section: string;
}

const COMMAND = /^npm run (?:--silent )?(admin|usage) -- (.*)$/;

/** Lines of the README's ```sh blocks (continuations joined) and inline code spans, with their section. */
function commandLines(readme: string): Array<{ line: string; section: string }> {
  const found: Array<{ line: string; section: string }> = [];
  let section = '';
  let inShellBlock = false;
  let inOtherBlock = false;
  let pending = '';
  for (const raw of readme.split('\n')) {
    if (raw.startsWith('## ')) section = raw.slice(3).trim();
    const fence = /^\s*```(\w*)/.exec(raw);
    if (fence) {
      if (inShellBlock || inOtherBlock) [inShellBlock, inOtherBlock] = [false, false];
      else if (fence[1] === 'sh') inShellBlock = true;
      else inOtherBlock = true;
      continue;
    }
    if (inShellBlock) {
      const line = pending + raw.trim();
      if (line.endsWith('\\')) pending = `${line.slice(0, -1).trimEnd()} `;
      else {
        pending = '';
        found.push({ line, section });
      }
    } else if (!inOtherBlock) {
      // A span with placeholders (`<group>`, `[flags]`, `…`) is a synopsis, not a line to run.
      for (const span of raw.matchAll(/`(npm run [^`]+)`/g)) {
        if (!/<\w+>|\[|…/.test(span[1] ?? '')) found.push({ line: span[1] ?? '', section });
      }
    }
  }
  return found;
}

/** Every admin and usage CLI command line of the README. */
export async function readmeCommands(env: Record<string, string>): Promise<ReadmeCommand[]> {
  const readme = await readFile(README_FILE, 'utf8');
  return commandLines(readme).flatMap(({ line, section }) => {
    const match = COMMAND.exec(line);
    if (!match) return [];
    const words = parseShellWords(match[2] ?? '', (name) => env[name] ?? `$${name}`);
    const end = words.findIndex((word) => typeof word !== 'string');
    const args = (end === -1 ? words : words.slice(0, end)) as string[];
    return [{ cli: match[1] as 'admin' | 'usage', args, line, section }];
  });
}
