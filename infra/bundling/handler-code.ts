import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { AssetHashType, DockerImage, type ILocalBundling } from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';

/** The repository root: handler entries are given relative to it. */
export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BUNDLE_SCRIPT = fileURLToPath(new URL('./bundle-handler.ts', import.meta.url));

/**
 * Bundles on this machine with the project's esbuild (no Docker). The entry is a field, not a closure:
 * CDK derives the asset cache key from the serialized bundling options, so each entry gets its own.
 */
class LocalHandlerBundling implements ILocalBundling {
  readonly entry: string;

  constructor(entry: string) {
    this.entry = entry;
  }

  tryBundle(outputDir: string): boolean {
    // Node 24 runs the TypeScript bundling script directly (type stripping).
    execFileSync(process.execPath, [BUNDLE_SCRIPT, this.entry, outputDir], { cwd: PROJECT_ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    return true;
  }
}

/** The code asset of one `functions/<group>/handler.ts`; its hash is the bundle's, so unchanged code is not re-uploaded. */
export function handlerCode(entry: string): Code {
  return Code.fromAsset(PROJECT_ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Never pulled: local bundling always succeeds or throws.
      image: DockerImage.fromRegistry('local-bundling-only'),
      local: new LocalHandlerBundling(entry),
    },
  });
}
