import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Time limits bound a hung test; they are not speed targets. On a busy machine (CI shares two
    // cores) tests run several times slower than on an idle one; speed is measured under bench/.
    projects: [
      { test: { name: 'shared', root: 'packages/shared', include: ['src/**/*.test.ts'], testTimeout: 60_000 } },
      { test: { name: 'simulator', root: 'apps/simulator', include: ['src/**/*.test.ts'], testTimeout: 60_000 } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      'apps/web/vitest.config.*',
    ],
  },
});
