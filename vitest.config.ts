import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Site builds and browser tests are slow on 2-core machines; unit tests are not.
    testTimeout: 60_000,
    hookTimeout: 600_000,
    // Build tests write dist/ folders of their own; running files in parallel on 2 cores
    // only makes them fight for the CPU.
    fileParallelism: false,
  },
});
