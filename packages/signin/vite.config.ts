import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The widget bundle for plain pages: dist/signin.js (an ES module exporting mount) and
 * dist/signin.css. React hosts import <SignIn/> from the package instead.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    cssCodeSplit: false,
    minify: true,
    lib: {
      entry: fileURLToPath(new URL('./src/bundle.ts', import.meta.url)),
      formats: ['es'],
      fileName: () => 'signin.js',
      cssFileName: 'signin',
    },
  },
});
