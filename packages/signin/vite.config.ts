import { fileURLToPath } from 'node:url';
import { catalogs } from '@gatehouse/i18n/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompressPlugin } from '../../vite.precompress.ts';

/**
 * The widget bundle for plain pages: dist/signin.js (an ES module exporting mount), its
 * on-demand chunks under dist/assets/, and dist/signin.css. Built as an application (not in
 * library mode) so that it is minified; React hosts import <SignIn/> from the package instead.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
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
    target: 'es2022',
    cssCodeSplit: false,
    rollupOptions: {
      // React's own wrappers are pure: a forwardRef, memo or createContext result that nothing
      // uses is dropped (wouter's Link, for one) instead of being kept as a possible side effect.
      treeshake: { manualPureFunctions: ['forwardRef', 'memo', 'createContext'] },
      input: fileURLToPath(new URL('./src/bundle.ts', import.meta.url)),
      // The entry may export what the on-demand chunk shares with it, so the login route is one
      // file (signin.js) instead of an entry plus a common chunk fetched after it.
      preserveEntrySignatures: 'allow-extension',
      output: {
        entryFileNames: 'signin.js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: (asset) =>
          asset.names.some((n) => n.endsWith('.css')) ? 'signin.css' : 'assets/[name]-[hash][extname]',
      },
    },
  },
});
