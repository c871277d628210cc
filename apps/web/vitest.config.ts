/* Build tooling only. import-x/no-cycle crashes while walking Vite's own type files (legacy node resolver), so it is off here. */
/* eslint import-x/no-cycle: "off" */
import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { offlineCounties } from './build/offline-counties';

export default defineProject({
  plugins: [react(), offlineCounties()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // A bound for a hung test, not a speed target: a busy machine runs these jsdom tests several times slower.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
