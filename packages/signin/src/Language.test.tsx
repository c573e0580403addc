import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadTexts } from './messages/index.ts';
import { SignIn } from './SignIn.tsx';
import { api, envelope, fakeServer, phone, renderWidget, stepUpAnswers } from './test/fake-server.tsx';

const header = (headers: Record<string, string>, name: string) =>
  Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];

describe('the widget in the language chosen (issue 15)', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    // The next test starts in English, as the setup left it.
    await loadTexts('en');
  });

  it("language 'es': the login screen in Spanish, lang set, and calls ask the service for Spanish", async () => {
    const { requests } = fakeServer({
      [api.password]: { body: envelope(1403, 'El nombre de usuario o la contraseña no son correctos.') },
    });
    renderWidget({ language: 'es' });
    expect(await screen.findByRole('heading', { name: 'Inicie sesión en su cuenta' })).toBeTruthy();
    expect(document.querySelector('.gh-signin')!.getAttribute('lang')).toBe('es');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Iniciar sesión' }));
    expect(screen.getByText('Ingrese su nombre de usuario.')).toBeTruthy();
    await user.type(screen.getByLabelText(/Nombre de usuario/), 'alexdemo1');
    await user.type(screen.getByLabelText(/^Contraseña/), 'Harbor7Wrong');
    await user.click(screen.getByRole('button', { name: 'Iniciar sesión' }));
    // 1403 shows the widget's own text for the status, in Spanish.
    expect(
      await screen.findAllByText(
        'El nombre de usuario o la contraseña no son correctos. Inténtelo de nuevo.',
      ),
    ).not.toHaveLength(0);
    const signIn = requests.find((r) => r.method === 'POST' && r.path.endsWith('/password/authentication'))!;
    expect(header(signIn.headers, 'accept-language')).toBe('es');
  });

  it("without a language the browser's preferred ones choose: es-MX is Spanish, fr-FR then en-GB is English", async () => {
    fakeServer({});
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['es-MX', 'en-US']);
    const first = renderWidget();
    expect(await screen.findByRole('heading', { name: 'Inicie sesión en su cuenta' })).toBeTruthy();
    first.unmount();
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['fr-FR', 'en-GB']);
    renderWidget();
    expect(await screen.findByRole('heading', { name: 'Log in to your account' })).toBeTruthy();
  });

  it('a new language re-renders the widget in it, where it is', async () => {
    fakeServer(stepUpAnswers({ phone: [phone('0143')], email: [] }));
    const onFinish = vi.fn();
    const authenticators = [{ type: 'OTP-SMS' as const }];
    const config = { appId: 'APP', appName: 'App', journey: 'STEPUP' as const, authenticators, onFinish };
    const view = renderWidget({ journey: 'STEPUP', authenticators, language: 'en' });
    expect(
      await screen.findByRole('heading', { name: 'Verify your identity' }, { timeout: 3000 }),
    ).toBeTruthy();
    await act(async () => {
      view.rerender(<SignIn config={{ ...config, language: 'es' }} />);
    });
    // The same screen (the contact choice of the step-up), now in Spanish.
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Verifique su identidad' })).toBeTruthy());
    expect(screen.getByRole('button', { name: 'Enviarme el código por mensaje de texto' })).toBeTruthy();
  });

  it("a host that renames its page in the new language is followed: the window title carries the host's new name, not the first one", async () => {
    fakeServer({});
    function Host({ language }: { language: 'en' | 'es' }) {
      // The portal's way: the page names itself in its own effect, in its language.
      useEffect(() => {
        document.title = language === 'es' ? 'Iniciar sesión – Banco' : 'Sign in – Bank';
      }, [language]);
      return <SignIn config={{ appId: 'APP', appName: 'App', onFinish: vi.fn(), language }} />;
    }
    const view = render(<Host language="en" />);
    await screen.findByRole('heading', { name: 'Log in to your account' });
    await waitFor(() => expect(document.title).toBe('Log in to your account – Sign in – Bank'));
    await act(async () => {
      view.rerender(<Host language="es" />);
    });
    await screen.findByRole('heading', { name: 'Inicie sesión en su cuenta' });
    await waitFor(() => expect(document.title).toBe('Inicie sesión en su cuenta – Iniciar sesión – Banco'));
    view.unmount();
    // The host's own (current) title comes back when the widget goes.
    expect(document.title).toBe('Iniciar sesión – Banco');
  });

  it('refuses an empty language, and shows English for a tag it does not ship', async () => {
    expect(() => renderWidget({ language: '' })).toThrow(/language: must be a language tag/);
    fakeServer({});
    renderWidget({ language: 'x-klingon' });
    expect(await screen.findByRole('heading', { name: 'Log in to your account' })).toBeTruthy();
  });
});
