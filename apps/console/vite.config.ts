import { fileURLToPath } from 'node:url';
import { catalogs } from '@gatehouse/i18n/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompressPlugin } from '../../vite.precompress.ts';

/** The representative console, served by the identity service at /console/ (apps/identity/src/plugins/static.ts). */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  plugins: [catalogs(), react(), precompressPlugin()],
  // The service's catalog (packages/contract/messages/en.json) as one export per group, so a
  // bundle keeps only the groups it reads (docs/decisions/029-languages.md).
  json: { stringify: false },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    modulePreload: { polyfill: false },
    rollupOptions: {
      // As the device app: React's wrappers are pure; the console is one small file.
      treeshake: { manualPureFunctions: ['forwardRef', 'memo', 'createContext'] },
      output: { codeSplitting: { groups: [{ name: 'console', tags: ['$initial'] }] } },
    },
  },
  // The console's API answers on the console's own origin only (127.0.0.1 in development:
  // apps/identity/src/console/gate.ts): the dev server's calls go there as if from that origin.
  server: {
    proxy: {
      '/api': {
        target: 'http://127.0.0.1:8080',
        changeOrigin: true,
        headers: { origin: 'http://127.0.0.1:8080' },
      },
    },
  },
});
