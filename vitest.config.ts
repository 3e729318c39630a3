import './tools/check-node-version.js';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Integration tests start a local host (embedded store + HTTP server) per file.
    testTimeout: 20_000,
    // The infra tests synthesize the stack in beforeAll, bundling nine functions: 15–25 s on a busy 2-core machine.
    hookTimeout: 120_000,
    pool: 'forks',
    setupFiles: ['test/support/remove-temporary-directories.ts'],
  },
});
