import 'fake-indexeddb/auto';
import type { SignInConfig } from '@gatehouse/signin';
import { findErrorSummary } from '@gatehouse/ui/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { App } from '../src/App.tsx';
import { loadDeviceKey } from '../src/device/deviceKey.ts';
import { memoryKeyStore } from '../src/device/keyStore.ts';
import { fakeDeviceServer, push, renderApp } from './fakeDevice.tsx';

/** The widget is tested on its own; here a stand-in that shows the configuration it was given. */
const given: { config?: SignInConfig } = {};
vi.mock('@gatehouse/signin', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@gatehouse/signin')>();
  return {
    ...actual,
    SignIn: ({ config }: { config: SignInConfig }) => {
      given.config = config;
      return <p>widget in {config.language}</p>;
    },
  };
});

function browserLanguages(languages: string[]) {
  Object.defineProperty(window.navigator, 'languages', { value: languages, configurable: true });
}

describe('the app in a Spanish browser', () => {
  beforeEach(() => {
    browserLanguages(['es-ES', 'en']);
    given.config = undefined;
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    // Back to jsdom's own (en-US).
    delete (window.navigator as { languages?: unknown }).languages;
    document.documentElement.lang = 'en';
  });

  test('every text in Spanish, <html lang="es">, dates in Spanish, and every call asks for Spanish', async () => {
    const store = memoryKeyStore();
    const key = await loadDeviceKey(store);
    const createdAt = '2026-11-20T10:00:00.000Z';
    const server = fakeDeviceServer({
      pushes: [push(), push({ id: 'old', status: 'DECLINED', answeredAt: '2026-11-23T16:00:00.000Z' })],
      registrations: [
        { id: 'cred-1', username: 'pushuser1', name: 'Mi teléfono', createdAt, lastUsedAt: null },
      ],
    });
    await server.know(key.publicKey);
    renderApp(store);
    expect(await screen.findByRole('heading', { level: 1, name: 'Su dispositivo' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('es');
    const nav = screen.getByRole('navigation', { name: 'Aplicación del dispositivo' });
    expect(within(nav).getByRole('link', { name: 'Agregar una cuenta' })).toBeTruthy();
    const request = await screen.findByRole('article', {
      name: 'Solicitud de inicio de sesión de pushuser1',
    });
    expect(within(request).getByRole('button', { name: 'Sí, soy yo' })).toBeTruthy();
    expect(within(request).getByText('Firefox en Windows')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('(1) Su dispositivo – Gatehouse Device'));
    const history = screen.getByRole('region', { name: 'Historial' });
    expect(within(history).getByText(/^Inicio de sesión de pushuser1: se rechazó, /)).toBeTruthy();
    const account = await screen.findByRole('heading', { level: 3, name: 'pushuser1' });
    const details = account.parentElement as HTMLElement;
    const spanishDate = new Intl.DateTimeFormat('es-ES', { dateStyle: 'medium', timeStyle: 'short' }).format(
      Date.parse(createdAt),
    );
    expect(spanishDate).toMatch(/nov/);
    expect(within(details).getByText(spanishDate)).toBeTruthy();
    expect(within(details).getByText('Todavía no')).toBeTruthy();

    // The service's refusals are shown in the app's words, in Spanish.
    await userEvent.click(within(request).getByRole('button', { name: 'Sí, soy yo' }));
    expect(await screen.findByText(/^Aprobó la solicitud de pushuser1\./)).toBeTruthy();

    const calls = server.requests.filter((r) => r.path.startsWith('/api/device/'));
    expect(calls.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/api/device/pushes', '/api/device/registrations', '/api/device/stream']),
    );
    expect(server.requests.filter((r) => r.headers['Accept-Language'] !== 'es')).toEqual([]);
  });

  test('a new language re-renders the app in place', async () => {
    fakeDeviceServer();
    const store = memoryKeyStore();
    const { rerender } = renderApp(store);
    const heading = await screen.findByRole('heading', { level: 1, name: 'Su dispositivo' });
    rerender(<App store={store} language="en" />);
    await screen.findByRole('heading', { level: 1, name: 'Your device' });
    expect(screen.getByRole('heading', { level: 1 })).toBe(heading);
    expect(document.documentElement.lang).toBe('en');
  });

  test('the add-an-account page hosts the widget in Spanish', async () => {
    fakeDeviceServer();
    renderApp(memoryKeyStore(), '/add');
    expect(await screen.findByRole('heading', { level: 1, name: 'Agregar una cuenta' })).toBeTruthy();
    expect(await screen.findByRole('textbox', { name: 'Nombre para este dispositivo' })).toBeTruthy();
    expect(await screen.findByText('widget in es')).toBeTruthy();
    expect(given.config?.language).toBe('es');
    await waitFor(() => expect(document.title).toBe('Agregar una cuenta – Gatehouse Device'));
  });

  test('the codes page in Spanish, its count a plural', async () => {
    fakeDeviceServer();
    renderApp(memoryKeyStore(), '/codes');
    expect(await screen.findByRole('heading', { level: 1, name: 'Códigos' })).toBeTruthy();
    await screen.findByText('Todavía no hay códigos en este dispositivo. Agregue uno a continuación.');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Agregar' }));
    const summary = await findErrorSummary('Hay un problema');
    expect(within(summary).getByRole('link', { name: 'Ingrese la dirección otpauth://.' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Error: Códigos – Gatehouse Device'));
    await user.click(screen.getByRole('textbox', { name: /Dirección \(otpauth:\/\/\)/ }));
    await user.paste('otpauth://totp/Gatehouse:alex?secret=JBSWY3DPEHPK3PXPJBSWY3DP&issuer=Gatehouse');
    await user.click(screen.getByRole('button', { name: 'Agregar' }));
    expect(await screen.findByText(/^Quedan? \d{1,2} s$/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copiar el código de Gatehouse: alex' })).toBeTruthy();
  });
});
