import { fileURLToPath } from 'node:url';
import { catalogs } from '@gatehouse/i18n/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('./gallery', import.meta.url));

/**
 * The built gallery carries the strict Content-Security-Policy the widget's hosts use, so the
 * gallery e2e test proves the components need no inline styles or scripts. (The dev server
 * injects styles inline for hot reload, so the policy is added to the build only.)
 */
const csp = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

function strictCsp(): Plugin {
  return {
    name: 'gallery-strict-csp',
    apply: 'build',
    transformIndexHtml: (html) =>
      html.replace(
        '<meta charset="utf-8" />',
        `<meta charset="utf-8" />\n    <meta http-equiv="Content-Security-Policy" content="${csp}" />`,
      ),
  };
}

/** `npm run gallery` serves it; `npm run gallery:build` writes packages/ui/gallery/dist. */
export default defineConfig({
  root,
  base: './',
  plugins: [catalogs(), react(), strictCsp()],
  build: {
    outDir: fileURLToPath(new URL('./gallery/dist', import.meta.url)),
    emptyOutDir: true,
    assetsInlineLimit: 0,
  },
});
