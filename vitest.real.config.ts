import { defineConfig } from 'vitest/config';

/**
 * The real-server lane (`npm run test:real`): test-real/ against llama.cpp's llama-server
 * (see docs/models.md). Separate from `npm test`, which never includes it. One template file
 * at a time: each starts its own servers, and the cancellation check times the server on
 * 2 shared cores.
 */
export default defineConfig({
  test: {
    include: ['test-real/**/*.test.ts'],
    globalSetup: ['test-real/global-setup.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
