import { defineConfig } from 'vitest/config';

// Two cores: keep the file-level parallelism modest so KiCad-backed tests do not starve each other.
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
