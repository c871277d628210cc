/* Build tooling only. import-x/no-cycle crashes while walking Vite's own type files (legacy node resolver), so it is off here. */
/* eslint import-x/no-cycle: "off" */
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { offlineCounties } from './build/offline-counties';

const server = 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), offlineCounties()],
  server: {
    proxy: {
      '/api': server,
      '/uploads': server,
      '/mqtt': { target: server, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    // The server's CSP forbids inline scripts, so never inline anything as a data: URL script.
    assetsInlineLimit: 0,
    rolldownOptions: {
      treeshake: {
        // Ant Design's @rc-component packages do not declare themselves free of side effects, so
        // importing one export of a package (the form context every Input reads) pulled in the
        // whole package (the form engine and its validator: some 15 kB gzip on the sign-in page).
        // They have none; only what is used is kept.
        moduleSideEffects: [{ test: /node_modules[\\/]@rc-component[\\/]/, sideEffects: false }],
      },
    },
  },
});
