import { fileURLToPath } from 'node:url';
import { catalogs } from '@gatehouse/i18n/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompressPlugin } from '../../vite.precompress.ts';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [catalogs(), react(), precompressPlugin()],
  // The service's catalog (packages/contract/messages/en.json) as one export per group, so a
  // bundle keeps only the groups it reads (docs/decisions/029-languages.md).
  json: { stringify: false },
  // wouter reads useSyncExternalStore through the use-sync-external-store shim, for React before 18;
  // React 19 has it, so the shim's copy stays off the login route (docs/decisions/019-small-router.md).
  resolve: { alias: { 'use-sync-external-store/shim/index.js': 'react' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    // Every browser the portal supports (docs: browser requirements) has modulepreload. An
    // on-demand chunk's own imports are not listed for preloading (their list of file names sat on
    // the login route); its CSS still is. The portal fetches its on-demand pages when the browser is
    // idle, so the extra round trip is not the customer's (docs/decisions/019-small-router.md).
    modulePreload: { polyfill: false, resolveDependencies: () => [] },
    rollupOptions: {
      // React's own wrappers are pure: a forwardRef, memo or createContext result that nothing
      // uses is dropped (wouter's Link, for one) instead of being kept as a possible side effect.
      treeshake: { manualPureFunctions: ['forwardRef', 'memo', 'createContext'] },
      output: {
        // The login route in one file: every module the entry imports statically (rolldown's
        // '$initial' tag), so the browser fetches one file and gzip sees it whole
        // (docs/decisions/019-small-router.md). Pages off the login route stay on demand.
        codeSplitting: { groups: [{ name: 'login', tags: ['$initial'] }] },
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:8080' } },
});
