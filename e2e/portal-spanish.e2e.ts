import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, spokenText } from './support/browser.ts';
import { latestMail, useServerAndBrowser } from './support/server.ts';

const emailOnly = { username: 'emailonly1', password: 'Cedar5Brook' };
const jordan = { username: 'jordandemo2', password: 'Lantern6Bridge' };

/**
 * Issue 15: the portal in Spanish. A browser whose first language is Spanish gets the portal, the
 * widget inside it and the service's messages in Spanish; an English browser switches with the
 * header's switch, which the browser keeps; `lang` on the document and axe on every screen.
 */
describe('the portal in Spanish', () => {
  const env = useServerAndBrowser();

  const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true });
  const documentLang = (page: Page) => page.evaluate(() => document.documentElement.lang);

  async function signIn(page: Page, account: { username: string; password: string }) {
    await page.getByRole('textbox', { name: /Nombre de usuario/ }).fill(account.username);
    await page.getByLabel('Contraseña', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  }

  it('a Spanish browser: the login page, a one-time code by e-mail that arrives in Spanish, the signed-in page', async () => {
    const context = await env.browser.newContext({ locale: 'es-ES' });
    const page = await context.newPage();
    await page.goto(`${env.server.origin}/#/login`);
    await heading(page, 'Inicie sesión en su cuenta').waitFor();
    expect(await documentLang(page)).toBe('es');
    expect(await page.title()).toBe('Inicie sesión en su cuenta – Iniciar sesión – Prime Portal');
    await page
      .getByText('Las sesiones inactivas en áreas protegidas se cierran después de cuatro horas.')
      .waitFor();
    await page.getByRole('navigation', { name: 'Idioma' }).waitFor();
    expect(await page.getByRole('button', { name: 'Español' }).getAttribute('aria-pressed')).toBe('true');
    // The components' own texts follow (packages/ui): the password's show button.
    await page.getByRole('button', { name: 'Mostrar contraseña' }).waitFor();
    await expectNoAxeViolations(page, 'portal login (es)');

    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await page.getByText('Ingrese su nombre de usuario.').first().waitFor();
    expect(await page.title()).toMatch(/^Error/);
    await expectNoAxeViolations(page, 'portal login with errors (es)');

    await signIn(page, emailOnly);
    await heading(page, 'Verifique su identidad').waitFor();
    await page.getByRole('button', { name: 'Enviarme el código por correo electrónico' }).click();
    await heading(page, 'Ingrese el código que le enviamos por correo electrónico').waitFor();
    await expectNoAxeViolations(page, 'portal OTP code (es)');
    const mail = await latestMail(env.server, `${emailOnly.username}@example.com`);
    expect(mail.text).toContain(`Su código de un solo uso de Prime Portal es ${mail.code}.`);
    await page.getByRole('textbox', { name: /Código de seguridad/ }).fill(mail.code);
    await page.getByRole('button', { name: 'Enviar', exact: true }).click();

    await heading(page, `Le damos la bienvenida, ${emailOnly.username}`).waitFor();
    expect(await documentLang(page)).toBe('es');
    await page.getByText('Su sesión se cierra después de cuatro horas sin actividad.').waitFor();
    await expectNoAxeViolations(page, 'signed-in page (es)');

    // The security page, its step-up first (the widget's STEPUP journey), all in Spanish, at 320 px.
    await page.getByRole('link', { name: 'Configuración de seguridad' }).click();
    await heading(page, 'Verifique su identidad para continuar').waitFor();
    await page.getByRole('button', { name: 'Enviarme el código por correo electrónico' }).click();
    await heading(page, 'Ingrese el código que le enviamos por correo electrónico').waitFor();
    const stepUp = await latestMail(env.server, `${emailOnly.username}@example.com`);
    expect(stepUp.code).not.toBe(mail.code);
    await page.getByRole('textbox', { name: /Código de seguridad/ }).fill(stepUp.code);
    await page.getByRole('button', { name: 'Enviar', exact: true }).click();
    await heading(page, 'Configuración de seguridad').waitFor({ timeout: 15_000 });
    await page.getByRole('heading', { name: 'Navegadores de confianza' }).waitFor();
    await page.getByRole('heading', { name: 'Sesiones iniciadas' }).waitFor();
    await expectNoAxeViolations(page, 'security page (es)');
    await page.setViewportSize({ width: 320, height: 640 });
    const { scroll, width } = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      width: document.documentElement.clientWidth,
    }));
    expect(scroll, 'sideways scroll on the security page at 320 px').toBeLessThanOrEqual(width);
    await page.getByRole('link', { name: 'Volver a su cuenta' }).click();
    await heading(page, `Le damos la bienvenida, ${emailOnly.username}`).waitFor();
    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await page.getByText('Cerró sesión en el portal correctamente').waitFor();
    await context.close();
  });

  it('an English browser switches by keyboard, keeps the choice, and recovers a password in Spanish', async () => {
    const context = await env.browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${env.server.origin}/#/login`);
    await heading(page, 'Log in to your account').waitFor();
    expect(await documentLang(page)).toBe('en');

    // By keyboard: the switch is a pair of buttons in the header, each language in its own name.
    const spanish = page.getByRole('button', { name: 'Español' });
    await spanish.focus();
    await page.keyboard.press('Enter');
    await heading(page, 'Inicie sesión en su cuenta').waitFor();
    await page
      .getByText('Las sesiones inactivas en áreas protegidas se cierran después de cuatro horas.')
      .waitFor();
    expect(await documentLang(page)).toBe('es');
    // The window title is Spanish throughout, the portal's part too (issue 26).
    await expect.poll(() => page.title()).toBe('Inicie sesión en su cuenta – Iniciar sesión – Prime Portal');
    expect(await spanish.getAttribute('aria-pressed')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Español');
    expect(await page.evaluate(() => localStorage.getItem('gatehouse.language'))).toBe('es');
    // The switch is said in the new language, from the polite live region.
    await expect
      .poll(() => page.getByTestId('announcer').textContent())
      .toBe('La página ahora está en español.');

    // The choice outlives a reload, whatever the browser prefers.
    await page.reload();
    await heading(page, 'Inicie sesión en su cuenta').waitFor();
    expect(await documentLang(page)).toBe('es');

    await page.getByRole('link', { name: '¿Olvidó su nombre de usuario?' }).click();
    await heading(page, 'Confirme su identidad').waitFor();
    await page
      .getByText(
        'Ingrese su nombre de usuario para recibir un correo electrónico con un código de un solo uso.',
      )
      .waitFor();
    await expectNoAxeViolations(page, 'recovery username step (es)');
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.getByText('Ingrese su nombre de usuario.').first().waitFor();
    await page.getByRole('textbox', { name: /Nombre de usuario/ }).fill(jordan.username);
    await page.getByRole('button', { name: 'Continuar' }).click();

    await heading(page, 'Se requiere un paso de seguridad adicional').waitFor();
    await page.getByText(/Correo electrónico registrado: .+@example\.com/).waitFor();
    await expectNoAxeViolations(page, 'recovery e-mail step (es)');
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page
      .getByText(
        'Le enviamos un código de validación por correo electrónico. Puede tardar entre 3 y 4 minutos en llegar. Úselo para continuar.',
      )
      .waitFor();
    const code = page.getByRole('textbox', { name: /Código de confirmación de un solo uso/ });
    await expectNoAxeViolations(page, 'recovery code step (es)');
    const mail = await latestMail(env.server, `${jordan.username}@example.com`);
    await code.fill(mail.code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await page
      .getByText('Su código de un solo uso no es válido. Inténtelo de nuevo o solicite un código nuevo.')
      .first()
      .waitFor();
    await code.fill(mail.code);
    await page.getByRole('button', { name: 'Confirmar' }).click();

    await heading(page, 'Restablecer contraseña').waitFor();
    await page.getByText('Debe tener entre 8 y 20 caracteres.').waitFor();
    await expectNoAxeViolations(page, 'reset password (es)');
    await page.getByLabel('Contraseña nueva', { exact: true }).fill('Lantern5Orbit');
    await page.getByLabel('Confirme su contraseña', { exact: true }).fill('Lantern5Orbit');
    await page.getByRole('button', { name: 'Enviar' }).click();
    await page.getByText('La contraseña se cambió correctamente').first().waitFor();
    await heading(page, 'Inicie sesión en su cuenta').waitFor();
    await signIn(page, { username: jordan.username, password: 'Lantern5Orbit' });
    await heading(page, `Le damos la bienvenida, ${jordan.username}`).waitFor();

    // And back to English, on the signed-in page, without leaving it.
    await page.getByRole('button', { name: 'English' }).click();
    await heading(page, `Welcome, ${jordan.username}`).waitFor();
    expect(await documentLang(page)).toBe('en');
    await context.close();
  });

  it('otponly01 recovers in Spanish by text, then by voice: the channel and phone steps and the server message in Spanish, a new password', async () => {
    for (const [option, sent, password] of [
      [
        /^Mensaje de texto al/,
        /^Enviamos el código a número terminado en 0 1 4 3\. Caducará en 30 minutos\.$/,
        'Pebble4Lagoon',
      ],
      [
        /^Llamada de voz al/,
        /^Estamos llamando al número terminado en 0 1 4 3 para darle el código\./,
        'Marble3Canyon',
      ],
    ] as const) {
      const context = await env.browser.newContext({ locale: 'es-ES' });
      const page = await context.newPage();
      await page.goto(`${env.server.origin}/#/username`);
      await page.getByRole('textbox', { name: /Nombre de usuario/ }).fill('otponly01');
      await page.getByRole('button', { name: 'Continuar' }).click();
      await heading(page, 'Se requiere un paso de seguridad adicional').waitFor();
      await page.getByRole('button', { name: 'Elegir otra forma de recibir el código' }).click();
      await heading(page, 'Elija cómo confirmar su identidad').waitFor();
      await expectNoAxeViolations(page, 'recovery channel step (es)');
      await page.getByRole('radio', { name: option }).check();
      await page.getByRole('button', { name: 'Continuar' }).click();
      await heading(page, 'Elija el número de teléfono').waitFor();
      await expectNoAxeViolations(page, 'recovery phone step (es)');
      await page.getByRole('button', { name: 'Continuar' }).click();
      // The masked number read in Spanish as the digits it ends in.
      await expect.poll(() => spokenText(page.getByText(/^(Enviamos|Estamos llamando)/))).toMatch(sent);
      const message = await latestMail(env.server, '+12025550143');
      await page.getByRole('textbox', { name: /Código de confirmación de un solo uso/ }).fill(message.code);
      await page.getByRole('button', { name: 'Confirmar' }).click();
      await heading(page, 'Restablecer contraseña').waitFor();
      await page.getByLabel('Contraseña nueva', { exact: true }).fill(password);
      await page.getByLabel('Confirme su contraseña', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Enviar' }).click();
      await page.getByText('La contraseña se cambió correctamente').first().waitFor();
      await context.close();
    }
  }, 180_000);

  it('the switch at 320 px in forced colours: reached by Tab from the skip link, no sideways scroll, the pressed one marked', async () => {
    const context = await env.browser.newContext({ locale: 'es-MX', viewport: { width: 320, height: 640 } });
    const page = await context.newPage();
    await page.emulateMedia({ forcedColors: 'active' });
    await page.goto(`${env.server.origin}/#/login`);
    await heading(page, 'Inicie sesión en su cuenta').waitFor();
    const { scroll, width } = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      width: document.documentElement.clientWidth,
    }));
    expect(scroll).toBeLessThanOrEqual(width);
    // Tab order: the skip button, then the switch's two buttons, each in its own language. The
    // widget's heading takes focus 400 ms after it appears when nothing else has it: wait for that,
    // then start from the skip button, so the order is read from there and not from wherever the
    // arrival focus happened to leave it.
    await page.waitForFunction(
      (name) => document.activeElement?.textContent === name,
      'Inicie sesión en su cuenta',
    );
    await page.getByRole('button', { name: 'Ir al contenido principal' }).focus();
    const focused = () =>
      page.evaluate(() => ({
        text: document.activeElement?.textContent,
        lang: document.activeElement?.getAttribute('lang'),
      }));
    expect(await focused()).toEqual({ text: 'Ir al contenido principal', lang: null });
    await page.keyboard.press('Tab');
    expect(await focused()).toEqual({ text: 'English', lang: 'en' });
    await page.keyboard.press('Tab');
    expect(await focused()).toEqual({ text: 'Español', lang: 'es' });
    // The pressed language has a border in system colours, not only a weight (forced colours keep borders).
    const border = await page
      .getByRole('button', { name: 'Español' })
      .evaluate((button) => getComputedStyle(button).borderTopStyle);
    expect(border).toBe('solid');
    await expectNoAxeViolations(page, 'portal login, forced colours, 320 px (es)');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await heading(page, 'Log in to your account').waitFor();
    expect(await documentLang(page)).toBe('en');
    expect(await focused()).toEqual({ text: 'English', lang: 'en' });
    await context.close();
  });
});
