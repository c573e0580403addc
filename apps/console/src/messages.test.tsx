import { act, screen, waitFor, within } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** Fresh copies of the console's modules: their state as on a page that has just loaded. */
async function fresh() {
  vi.resetModules();
  return { texts: await import('./messages.ts'), app: await import('./start.tsx') };
}

describe("the console's texts", () => {
  it('the chosen language, its plurals and the select of a value the service names, its key before they load', async () => {
    const { texts } = await fresh();
    expect(texts.t('signIn.title')).toBe('signIn.title');
    expect(texts.textsLanguage()).toBeUndefined();

    await texts.loadTexts('es', ['es-ES']);
    expect(texts.textsLanguage()).toBe('es');
    expect(texts.t('signIn.title')).toBe('Acceso del personal');
    expect(texts.t('common.windowTitle', 'Buscar un cliente')).toBe(
      'Buscar un cliente - Consola de Gatehouse',
    );
    expect(texts.t('audit.found', 1)).toBe('Coincide 1 acción de la consola.');
    expect(texts.t('audit.found', 3)).toBe('Coinciden 3 acciones de la consola.');
    expect(texts.t('customer.statusValue', 'blocked')).toBe('Bloqueado por motivos de seguridad');
    // A value the catalog does not know shows as the service sent it.
    expect(texts.t('customer.statusValue', 'archived')).toBe('archived');
    expect(texts.t('common.signedInAs', 'rita.rep', 'representative')).toBe(
      'Sesión iniciada como rita.rep (representante)',
    );
    expect(texts.keysWith('audit.event.')).toContain('audit.event.rep-code-issued');
    expect(texts.hasText('audit.event.console-unblock')).toBe(true);
    expect(texts.hasText('audit.event.sign-in')).toBe(false);

    await texts.loadTexts('en', ['en-US']);
    expect(texts.t('issue.intro', 1)).toBe(
      'Verify the caller first. The code is shown once, works once, for this customer only, and expires in 1 minute.',
    );
    expect(texts.t('common.sessionEnded', 15)).toBe(
      'Your console session ended after 15 minutes without activity. Sign in again.',
    );
  });

  it('the last language asked for wins when two loads race', async () => {
    const { texts } = await fresh();
    await Promise.all([texts.loadTexts('es'), texts.loadTexts('en')]);
    expect(texts.textsLanguage()).toBe('en');
    expect(texts.t('signIn.title')).toBe('Staff sign-in');
  });

  it("dates and times in the language, in the browser's region of it", async () => {
    const { texts } = await fresh();
    const noon = '2026-11-27T12:00:00Z';
    await texts.loadTexts('es', ['es-ES', 'en']);
    expect(texts.dateTime(noon)).toMatch(/^27\/11\/2026/);
    await texts.loadTexts('en', ['en-GB']);
    expect(texts.dateTime(noon)).toMatch(/^27\/11\/2026/);
    await texts.loadTexts('en', ['fr-FR', 'en-US']);
    expect(texts.dateTime(noon)).toMatch(/^11\/27\/2026/);
  });
});

describe('the console starts in the browser’s language', () => {
  let element: HTMLElement;
  let root: Root | undefined;
  const requests: Array<Headers> = [];
  beforeEach(() => {
    element = document.body.appendChild(document.createElement('div'));
    document.documentElement.lang = 'en';
    window.location.hash = '';
    requests.length = 0;
    // No staff session: the service answers 401 with its envelope.
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        requests.push(new Headers(init.headers));
        const status = { code: 4401, message: 'Inicie sesión en la consola para continuar.' };
        return new Response(JSON.stringify({ responseBaseInfo: { requestId: 'REQ', status } }), {
          status: 401,
          headers: { 'Content-Type': 'application/json' },
        });
      }),
    );
  });
  afterEach(() => {
    act(() => root?.unmount());
    root = undefined;
    element.remove();
    vi.unstubAllGlobals();
    vi.doUnmock('@gatehouse/i18n');
  });

  it('Spanish: nothing until its texts are in, then the sign-in in Spanish, lang="es", and the service asked in Spanish', async () => {
    // The catalog arrives when the test says so, as over a slow network.
    let arrive = () => {};
    const arrived = new Promise<void>((resolve) => {
      arrive = resolve;
    });
    vi.resetModules();
    vi.doMock('@gatehouse/i18n', async (original) => {
      const i18n = await original<typeof import('@gatehouse/i18n')>();
      return {
        ...i18n,
        textStore: (...args: Parameters<typeof i18n.textStore>) => {
          const store = i18n.textStore(...args);
          return {
            ...store,
            use: async (language: Parameters<typeof store.use>[0]) => {
              await arrived;
              return store.use(language);
            },
          };
        },
      };
    });
    const app = await import('./start.tsx');
    // Every text the element ever shows, from the first: never English, never a key.
    const shown: string[] = [];
    const observer = new MutationObserver(() => shown.push(element.textContent ?? ''));
    observer.observe(element, { childList: true, subtree: true, characterData: true });
    const started = app.start(element, ['es-MX', 'en-US']);
    // wait: gives the app 50 ms in which it could (wrongly) render before its texts arrive; an absence is only seen over time
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(element.innerHTML).toBe('');
    expect(requests).toEqual([]);
    arrive();
    root = await act(() => started);
    expect(document.documentElement.lang).toBe('es');
    const page = within(element);
    await page.findByRole('heading', { name: 'Acceso del personal', level: 1 });
    expect(page.getByRole('textbox', { name: /Nombre de empleado/ })).toBeTruthy();
    expect(page.getByRole('button', { name: 'Iniciar sesión' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Acceso del personal - Consola de Gatehouse'));
    observer.disconnect();
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.filter((text) => /Gatehouse Console|Staff|Skip to|\b(common|signIn)\./.test(text))).toEqual(
      [],
    );
    expect(shown[0]).toContain('Consola de Gatehouse');
    // Every call (StrictMode asks for the session twice).
    expect(requests.length).toBeGreaterThan(0);
    expect(new Set(requests.map((headers) => headers.get('Accept-Language')))).toEqual(new Set(['es']));
  });

  it('a browser without a shipped language gets English', async () => {
    const { app } = await fresh();
    root = await act(() => app.start(element, ['fr-FR', 'de']));
    expect(document.documentElement.lang).toBe('en');
    await screen.findByRole('heading', { name: 'Staff sign-in', level: 1 });
    // Every call (StrictMode asks for the session twice).
    expect(requests.length).toBeGreaterThan(0);
    expect(new Set(requests.map((headers) => headers.get('Accept-Language')))).toEqual(new Set(['en']));
  });
});
