import { fileURLToPath } from 'node:url';
import { catalogs } from '@gatehouse/i18n/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompressPlugin } from '../../vite.precompress.ts';

/** The device app, served by the identity service at /device/ (apps/identity/src/plugins/static.ts). */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/device/',
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
      // As the portal (docs/decisions/019-small-router.md): React's wrappers are pure, and the
      // start page is one file; the add-an-account page (with the widget) loads on demand.
      treeshake: { manualPureFunctions: ['forwardRef', 'memo', 'createContext'] },
      output: { codeSplitting: { groups: [{ name: 'device', tags: ['$initial'] }] } },
    },
  },
  server: { proxy: { '/api': 'http://localhost:8080' } },
});
