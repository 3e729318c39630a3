import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { AssetHashType, DockerImage, type ILocalBundling } from 'aws-cdk-lib';
import { Source, type ISource } from 'aws-cdk-lib/aws-s3-deployment';
import { PROJECT_ROOT } from './handler-code.ts';

const BUILD_SCRIPT = fileURLToPath(new URL('../../web/console/build-console-assets.ts', import.meta.url));

/** Builds the console's static files on this machine with the project's esbuild, like the handlers (no Docker). */
class ConsoleAssetsBundling implements ILocalBundling {
  tryBundle(outputDir: string): boolean {
    execFileSync(process.execPath, [BUILD_SCRIPT, outputDir], { cwd: PROJECT_ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    return true;
  }
}

/** index.html, console.css and console.js as a deployment source; hashed by output, so unchanged files are not re-uploaded. */
export function consoleAssets(): ISource {
  return Source.asset(PROJECT_ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: { image: DockerImage.fromRegistry('local-bundling-only'), local: new ConsoleAssetsBundling() },
  });
}
