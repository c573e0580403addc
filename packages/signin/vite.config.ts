import { fileURLToPath } from 'node:url';
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
  plugins: [react(), precompressPlugin()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    cssCodeSplit: false,
    rollupOptions: {
      input: fileURLToPath(new URL('./src/bundle.ts', import.meta.url)),
      preserveEntrySignatures: 'exports-only',
      output: {
        entryFileNames: 'signin.js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: (asset) =>
          asset.names.some((n) => n.endsWith('.css')) ? 'signin.css' : 'assets/[name]-[hash][extname]',
      },
    },
  },
});
