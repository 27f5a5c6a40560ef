import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: native audio/VAD tests spawn processes; keep the pool small so timings stay sane.
    maxWorkers: 2,
    benchmark: { include: ['test/bench/**/*.bench.ts'] },
  },
});
