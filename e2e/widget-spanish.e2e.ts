import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/browser.ts';
import { latestMail, useServerAndBrowser } from './support/server.ts';

const alex = { username: 'alexdemo1', password: 'Harbor7Lights' };
const emailOnly = { username: 'emailonly1', password: 'Cedar5Brook' };

/**
 * Issue 15: the widget in Spanish on the plain embedding page (`language: 'es'` from
 * `?language=es`), in a browser whose own language is English: every screen in Spanish, `lang`
 * on the widget, axe on each screen, and the service's e-mail in Spanish for the account the
 * customer signed in with in Spanish.
 */
describe('the widget in Spanish', () => {
  const env = useServerAndBrowser();

  it('a password sign-in, with its errors, and an e-mailed code that arrives in Spanish', async () => {
    const context = await env.browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    const heading = (name: string) => page.getByRole('heading', { name, exact: true });
    const lang = () => page.locator('.gh-signin').getAttribute('lang');

    await page.goto(`${env.server.origin}/widget/embed.html?language=es`);
    await heading('Inicie sesión en su cuenta').waitFor();
    expect(await lang()).toBe('es');
    await expectNoAxeViolations(page, 'login (es)');
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await page.getByText('Ingrese su nombre de usuario.').first().waitFor();
    await expectNoAxeViolations(page, 'login with errors (es)');

    await page.getByRole('textbox', { name: /Nombre de usuario/ }).fill(alex.username);
    await page.getByLabel('Contraseña', { exact: true }).fill('Harbor7Wrong');
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await page
      .getByText('El nombre de usuario o la contraseña no son correctos. Inténtelo de nuevo.')
      .first()
      .waitFor();

    await page.getByRole('textbox', { name: /Nombre de usuario/ }).fill(emailOnly.username);
    await page.getByLabel('Contraseña', { exact: true }).fill(emailOnly.password);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await heading('Verifique su identidad').waitFor();
    await page.getByText('Esta es la dirección de correo electrónico que tenemos registrada.').waitFor();
    await expectNoAxeViolations(page, 'OTP contact (es)');
    await page.getByRole('button', { name: 'Enviarme el código por correo electrónico' }).click();
    await heading('Ingrese el código que le enviamos por correo electrónico').waitFor();
    await expectNoAxeViolations(page, 'OTP code (es)');

    const mail = await latestMail(env.server, `${emailOnly.username}@example.com`);
    expect(mail.text).toContain(`Su código de un solo uso de Prime Portal es ${mail.code}.`);
    expect(mail.text).toContain('Caduca en 30 minutos.');

    const field = page.getByRole('textbox', { name: /Código de seguridad/ });
    await field.fill(mail.code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Enviar', exact: true }).click();
    await page.getByText('No reconocemos el código de seguridad. Inténtelo de nuevo.').first().waitFor();
    await expectNoAxeViolations(page, 'OTP code with error (es)');
    await field.fill(mail.code);
    await page.getByRole('button', { name: 'Enviar', exact: true }).click();
    await page.getByText('Ha iniciado sesión.').waitFor();
    await context.close();
  });
});
