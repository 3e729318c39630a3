import type { Plugin, PluginBuild } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, resolve as resolvePath } from 'node:path';

/**
 * esbuild gives a module the chunk of the entry points that reach its *file*, whichever of its exports they
 * use. The AWS SDK imports through barrel files (`@aws-sdk/core/protocols`, `@smithy/core/serde`: files of
 * `export … from` lines), and a cold start reaches them (DynamoDB's JSON protocol is in
 * `@aws-sdk/core/protocols`), so every file such a barrel re-exports that a lazily loaded client uses (S3's
 * XML protocol, STS's query protocol, SSO's REST JSON) was compiled at every cold start: ~40 KB of a route
 * group's ~530 KB. Here an SDK module's imports from a barrel are pointed at the files that define the
 * names, so the barrel no longer ties the lazily loaded clients' code to the cold start. What cannot be
 * traced (a name from `export *` of a file whose exports are not plain declarations) stays on the barrel,
 * and so does every import from a barrel that re-exports a module with side effects.
 */
export const sdkImportsPastBarrels: Plugin = {
  name: 'sdk-imports-past-barrels',
  setup(esbuild) {
    const barrels = new BarrelIndex(esbuild);
    esbuild.onLoad({ filter: SDK_MODULE, namespace: 'file' }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes(' from ')) return undefined;
      return { contents: await barrels.rewrite(source, args.path), loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

/** The SDK's ES modules (what the bundles take, `mainFields: module`): its CommonJS files are not rewritten. */
const SDK_MODULE = /[\\/]node_modules[\\/]@(aws-sdk|smithy)[\\/][^\\/]+[\\/]dist-es[\\/].+\.js$/;
/** `import { a, b as c } from "x";` and `export { a } from "x";` at a line's start, as tsc writes them. */
const NAMED_FROM = /^(import|export)\s*\{([^}]*)\}\s*from\s*"([^"]+)";?/gm;
/** A barrel's statements: `export { a, b as c } from "x";` and `export * from "x";`. */
const RE_EXPORT = /^export\s*(?:\*|\{([^}]*)\})\s*from\s*"([^"]+)"\s*;?/gm;
/** A file's own exports, as tsc writes them: declarations, and `export { a, b as c };`. */
const DECLARED_EXPORT = /^export\s+(?:async\s+)?(?:function\*?|class|const|let|var)\s+([\w$]+)/gm;
const LOCAL_EXPORT_LIST = /^export\s*\{([^}]*)\}\s*;?\s*$/gm;

interface Origin {
  file: string;
  name: string;
}

/**
 * What each barrel file's names are and where they are defined (`undefined` for a file that is not a
 * barrel, or a barrel that must stay). Resolving a package name is asynchronous (esbuild's), so the barrels an import reaches are first
 * found one import at a time (no lookup waits on another, which barrels that re-export each other would
 * deadlock), and then read synchronously.
 */
class BarrelIndex {
  private readonly esbuild: PluginBuild;
  private readonly packages = new Map<string, string | undefined>();
  private readonly reached = new Set<string>();
  private readonly maps = new Map<string, Map<string, Origin> | undefined>();
  private readonly barrelsWithSideEffects = new Set<string>();
  private finding: Promise<unknown> = Promise.resolve();

  constructor(esbuild: PluginBuild) {
    this.esbuild = esbuild;
  }

  async rewrite(source: string, importer: string): Promise<string> {
    const statements = [...source.matchAll(NAMED_FROM)];
    const found = this.finding.then(() => this.findBarrels(statements.map((match) => [match[3]!, importer])));
    this.finding = found.catch(() => undefined);
    await found;
    return source.replace(NAMED_FROM, (statement, keyword: string, list: string, specifier: string) => {
      const target = this.resolved(specifier, importer);
      const barrel = target ? this.barrel(target, []) : undefined;
      if (!barrel) return statement;
      const kept: string[] = [];
      const traced: string[] = [];
      for (const binding of parseBindings(list)) {
        const origin = barrel.get(binding.imported);
        if (!origin) kept.push(binding.text);
        else traced.push(`${keyword} { ${origin.name} as ${binding.local} } from ${JSON.stringify(origin.file)};`);
      }
      return [...traced, ...(kept.length > 0 ? [`${keyword} { ${kept.join(', ')} } from ${JSON.stringify(specifier)};`] : [])].join('\n');
    });
  }

  /** Resolves each import and, through the barrels among their targets, every import those re-export from. */
  private async findBarrels(imports: Array<[specifier: string, importer: string]>): Promise<void> {
    const pending = [...imports];
    for (let next = pending.pop(); next; next = pending.pop()) {
      const [specifier, importer] = next;
      if (!specifier.startsWith('.')) {
        const key = packageKey(specifier, importer);
        if (!this.packages.has(key)) {
          const result = await this.esbuild.resolve(specifier, { kind: 'import-statement', importer, resolveDir: dirname(importer) });
          this.packages.set(key, result.errors.length === 0 && !result.external && result.namespace === 'file' && SDK_MODULE.test(result.path) ? result.path : undefined);
        }
      }
      const target = this.resolved(specifier, importer);
      if (!target || this.reached.has(target)) continue;
      this.reached.add(target);
      for (const [, , reExported] of reExports(readFileSync(target, 'utf8')) ?? []) pending.push([reExported!, target]);
    }
  }

  /**
   * Where an SDK module's import leads, if to another SDK module. The SDK's own relative imports (most of
   * them) are found on disk as esbuild would (`./x` is `./x.js` or `./x/index.js`); a package name is
   * resolved by esbuild, once per package folder it is imported from (each call is a round trip to it).
   */
  private resolved(specifier: string, importer: string): string | undefined {
    return specifier.startsWith('.') ? moduleFile(resolvePath(dirname(importer), specifier)) : this.packages.get(packageKey(specifier, importer));
  }

  /** The names a barrel re-exports and where each is defined, following barrels of barrels. */
  private barrel(file: string, within: readonly string[]): Map<string, Origin> | undefined {
    if (this.maps.has(file)) return this.maps.get(file);
    if (within.includes(file)) throw new Error(`sdk-barrel-imports: the SDK's barrel files re-export each other (${[...within, file].join(' -> ')})`);
    const statements = reExports(readFileSync(file, 'utf8'));
    const origins = statements && new Map<string, Origin>();
    // A name exported by name wins over one that `export *` brings, wherever it stands (as in ES modules).
    for (const [, list, specifier] of statements ?? []) {
      const target = this.resolved(specifier!, file);
      const inner = target ? this.barrel(target, [...within, file]) : undefined;
      // Importing a barrel runs every module it re-exports that has side effects (the package's `sideEffects`;
      // esbuild drops the others when unused): such a barrel, or one re-exporting outside the SDK, is kept.
      if (!target || (!inner && (this.barrelsWithSideEffects.has(target) || hasSideEffects(target)))) {
        this.barrelsWithSideEffects.add(file);
        this.maps.set(file, undefined);
        return undefined;
      }
      if (list !== undefined) {
        for (const binding of parseBindings(list)) {
          const origin = inner ? inner.get(binding.imported) : { file: target, name: binding.imported };
          if (origin) origins!.set(binding.local, origin);
        }
      } else {
        for (const [name, origin] of inner ?? declaredExports(target)) if (name !== 'default' && !origins!.has(name)) origins!.set(name, origin);
      }
    }
    this.maps.set(file, origins);
    return origins;
  }
}

/** A barrel's `export … from` statements; `undefined` for a file that holds anything else (comments aside). */
function reExports(source: string): RegExpExecArray[] | undefined {
  const statements = [...source.matchAll(RE_EXPORT)];
  return statements.length > 0 && source.replace(RE_EXPORT, '').replace(/\/\/.*$/gm, '').trim() === '' ? statements : undefined;
}

/** The names a file that is not a barrel exports by declaration: none when it also re-exports. */
function declaredExports(file: string): Map<string, Origin> {
  const source = readFileSync(file, 'utf8');
  if (/^export\s*(\*|\{[^}]*\}\s*from)/m.test(source)) return new Map();
  const names = [...source.matchAll(DECLARED_EXPORT)].map((match) => match[1]!);
  for (const match of source.matchAll(LOCAL_EXPORT_LIST)) for (const binding of parseBindings(match[1]!)) names.push(binding.local);
  return new Map(names.map((name) => [name, { file, name }]));
}

/**
 * Whether running a module may have effects beyond its exports, as its package declares (`"sideEffects"`:
 * `false`, or the list of the files that have some); a package that declares nothing may have them anywhere.
 */
function hasSideEffects(file: string): boolean {
  const root = file.slice(0, file.lastIndexOf('/dist-es/'));
  let declared = sideEffectsOfPackage.get(root);
  if (declared === undefined) {
    const field = (JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { sideEffects?: unknown }).sideEffects;
    declared = field === false ? [] : Array.isArray(field) && field.every((entry) => typeof entry === 'string' && !entry.includes('*')) ? field.map((entry: string) => resolvePath(root, entry)) : true;
    sideEffectsOfPackage.set(root, declared);
  }
  return declared === true || declared.includes(file);
}
const sideEffectsOfPackage = new Map<string, string[] | true>();

/** A package name resolves alike from every file of one package folder. */
function packageKey(specifier: string, importer: string): string {
  return `${importer.slice(0, importer.lastIndexOf('/dist-es/'))}\0${specifier}`;
}

function moduleFile(path: string): string | undefined {
  for (const candidate of path.endsWith('.js') ? [path] : [`${path}.js`, `${path}/index.js`]) if (existsSync(candidate) && SDK_MODULE.test(candidate)) return candidate;
  return undefined;
}

interface Binding {
  imported: string;
  local: string;
  text: string;
}

function parseBindings(list: string): Binding[] {
  return list
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((text) => {
      const [imported, local = imported] = text.split(/\s+as\s+/) as [string, string?];
      return { imported, local, text };
    });
}
