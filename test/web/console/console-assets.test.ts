import { describe, expect, it } from 'vitest';
import { buildConsoleAssets } from '../../../web/console/build-console-assets.ts';

describe('the console page', () => {
  it('is a small script that loads none of the gateway server code (no zod): about 30 KB minified', { timeout: 30_000 }, async () => {
    const script = (await buildConsoleAssets()).find((asset) => asset.name === 'console.js');
    expect(script).toBeDefined();
    // A page import of a server module once pulled zod in (486 KB); the known providers are plain data now.
    expect(script?.body.length).toBeLessThan(64 * 1024);
    expect(script?.body.toString('utf8')).not.toMatch(/ZodError|\$ZodType/);
  });
});
