import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogs } from '../src/vite.ts';

/** Two catalog folders on disk: an app's and a package's it includes. */
function folders(appTexts: Record<string, Record<string, string>>) {
  const root = mkdtempSync(join(tmpdir(), 'catalogs-'));
  for (const [folder, texts] of [
    ['app/messages', appTexts],
    ['ui/messages', { ui: { close: 'Cerrar', show: 'Mostrar {0}' } }],
  ] as const) {
    mkdirSync(join(root, folder), { recursive: true });
    writeFileSync(join(root, folder, 'es.json'), JSON.stringify(texts));
  }
  return join(root, 'app/messages/es.json');
}

/** Resolves and loads one import the way Vite would, returning the compiled module's source. */
async function compile(file: string, query: string) {
  const plugin = catalogs();
  const context = { resolve: async (id: string) => ({ id }), addWatchFile: () => undefined };
  /** A hook as Vite calls it: with the plugin context as `this`. */
  type Hook = (this: typeof context, ...args: unknown[]) => unknown;
  const id = await (plugin.resolveId as unknown as Hook).call(context, `${file}?${query}`, undefined);
  return { id: id as string, code: (plugin.load as unknown as Hook).call(context, id) as string };
}

describe('catalogs(): include', () => {
  it("adds the included groups' keys, prefixed, to the same module, and names the chunk for them", async () => {
    const file = folders({ login: { 'login.heading': 'Inicie sesión' } });
    const { id, code } = await compile(file, 'groups=login&include=../../ui/messages:ui');
    expect(id.endsWith('/app/messages/es_login_ui')).toBe(true);
    expect(code).toContain('"login.heading"');
    expect(code).toContain('"ui.close"');
    expect(code).toContain('"ui.show"');
  });

  it('refuses a key the catalog has itself: a text is written once', async () => {
    const file = folders({ login: { 'ui.close': 'Cerrar ya' } });
    await expect(compile(file, 'groups=login&include=../../ui/messages:ui')).rejects.toThrow(
      /ui\.close is the catalog's own/,
    );
  });
});
