import './tools/check-node-version.js';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Integration tests start a local host (embedded store + HTTP server) per file.
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    setupFiles: ['test/support/remove-temporary-directories.ts'],
  },
});
