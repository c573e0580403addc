import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Secret, TOTP } from 'otpauth';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/browser.ts';
import { useServerAndBrowser } from './support/server.ts';

type DemoAccount = { username: string; password: string; totp?: { secret: string } };
const accounts = JSON.parse(
  readFileSync(new URL('../demo/accounts.json', import.meta.url), 'utf8'),
) as DemoAccount[];
/** An authenticator app and an e-mail address: every check below by a code computed from the demo secret. */
const authApp = accounts.find((a) => a.username === 'authapp01')!;

/**
 * The screens issues 22 and 23 touched (decisions 030 and 032), in Chromium: the device app's
 * 'Add an account' step-up and the portal's and widget's word for a recently added credential, by
 * keyboard alone, in forced colours at 320 px, axe clean, and the step-up notice in Spanish.
 */
describe('round 3 screens: add-an-account step-up, recent credentials', () => {
  const env = useServerAndBrowser();
  const contexts: BrowserContext[] = [];

  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  async function open(options: Parameters<typeof env.browser.newContext>[0] = {}) {
    const context = await env.browser.newContext(options);
    contexts.push(context);
    return context.newPage();
  }

  const totp = new TOTP({
    secret: Secret.fromBase32(authApp.totp!.secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
  });
  /**
   * The app's code at the server's time, of a new time step when asked (a code is accepted once per
   * step). The device's proofs carry the browser's time: the device test moves the clock once only.
   */
  const codeNow = (nextStep = true) => {
    if (nextStep) env.server.clock.advance(30_000);
    return totp.generate({ timestamp: env.server.clock.now().getTime() });
  };
  const focused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);
  const reflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);
  async function tabTo(page: Page, target: Locator) {
    for (let i = 0; i < 40 && !(await focused(target)); i++) await page.keyboard.press('Tab');
    expect(await focused(target)).toBe(true);
  }

  /** A token app added moments ago to authapp01: recent, so never offered for a step-up (decision 030). */
  const accountId = async () =>
    (
      await env.server.ctx.db
        .selectFrom('accounts')
        .select('id')
        .where('username_key', '=', authApp.username)
        .executeTakeFirstOrThrow()
    ).id;
  async function addRecentToken() {
    await env.server.ctx.credentials.add({
      accountId: await accountId(),
      kind: 'token',
      name: 'VIP Access',
      publicPart: 'VSST20269999',
      secret: randomBytes(20),
      data: { algorithm: 'SHA1', digits: 6, period: 30, drift: 0 },
    });
  }

  it('device app: signs in and verifies again by keyboard alone, in forced colours at 320 px; focus lands on the step-up', {
    timeout: 120_000,
  }, async () => {
    const phone = await open({ viewport: { width: 320, height: 640 } });
    await phone.emulateMedia({ forcedColors: 'active' });
    await phone.goto(`${env.server.origin}/device/#/add`);
    const signIn = phone.getByRole('region', { name: 'Sign in' });
    const username = signIn.getByRole('textbox', { name: /Username/ });
    await username.waitFor();
    await tabTo(phone, username);
    await phone.keyboard.type(authApp.username);
    await phone.keyboard.press('Tab');
    await phone.keyboard.type(authApp.password);
    await phone.keyboard.press('Enter');
    const code = signIn.getByRole('textbox', { name: /Security code/ });
    await code.waitFor();
    await tabTo(phone, code);
    await phone.keyboard.type(codeNow(false));
    await phone.keyboard.press('Enter');

    // The sign-in is done; the step-up replaces it, says why, and its heading takes the focus (not <body>).
    const stepUp = phone.getByRole('region', { name: 'Verify your identity again' });
    const stepUpHeading = stepUp.getByRole('heading', { name: 'Enter the code from your authenticator app' });
    await stepUpHeading.waitFor({ timeout: 15_000 });
    await stepUp
      .getByText(
        "Signed in. To add a device, verify your identity once more with a method you've had for at least 2–3 days: a recently added one can't be used for this.",
      )
      .waitFor();
    await expect.poll(() => focused(stepUpHeading)).toBe(true);
    expect(await reflows(phone)).toBeLessThanOrEqual(320);
    await expectNoAxeViolations(phone, 'device: add-an-account step-up, forced colours, 320 px');

    const again = stepUp.getByRole('textbox', { name: /Security code/ });
    await tabTo(phone, again);
    await phone.keyboard.type(codeNow());
    await phone.keyboard.press('Enter');
    await phone
      .getByText('This device now approves sign-ins for authapp01.')
      .first()
      .waitFor({ timeout: 15_000 });
    await expectNoAxeViolations(phone, 'device: account added, forced colours, 320 px');
    // The tests below sign authapp01 in by its app: the device added here would be offered first.
    const removed = await env.server.ctx.db
      .deleteFrom('credentials')
      .where('kind', '=', 'push')
      .where('account_id', '=', (await accountId()) as never)
      .executeTakeFirst();
    expect(Number(removed.numDeletedRows)).toBe(1);
  });

  it("portal: a recently added token says when it can confirm changes, in forced colours at 320 px; the widget's step-up says why it is not offered", {
    timeout: 120_000,
  }, async () => {
    await addRecentToken();
    const page = await open({ viewport: { width: 320, height: 640 } });
    await page.emulateMedia({ forcedColors: 'active' });
    await page.goto(`${env.server.origin}/#/login`);
    await page.getByRole('textbox', { name: /Username/ }).fill(authApp.username);
    await page.getByLabel('Password', { exact: true }).fill(authApp.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Enter the code from your authenticator app' }).waitFor();
    await page.getByRole('textbox', { name: /Security code/ }).fill(codeNow());
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: `Welcome, ${authApp.username}` }).waitFor({ timeout: 15_000 });

    // The security page's step-up: the token is recent, so only the established app is offered,
    // and the screen says why the token is missing.
    await page.getByRole('link', { name: 'Security settings' }).click();
    await page.getByRole('heading', { name: 'Verify your identity to continue' }).waitFor();
    await page.getByRole('heading', { name: 'Enter the code from your authenticator app' }).waitFor();
    await page
      .getByText(
        "Methods you added recently aren't offered for this check: a new authenticator app, token app or mobile device can confirm changes to your security settings only after 2–3 days. You can still use them to sign in.",
      )
      .waitFor();
    expect(await reflows(page)).toBeLessThanOrEqual(320);
    await expectNoAxeViolations(page, 'security step-up with a recent token, forced colours, 320 px');
    await page.getByRole('textbox', { name: /Security code/ }).fill(codeNow());
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Security settings', exact: true }).waitFor({ timeout: 15_000 });

    const token = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: /VIP Access/ }) });
    await token.getByText('Recently added', { exact: true }).waitFor();
    await token
      .getByText(/It can be used to sign in, but not to confirm changes on this page until .+\./)
      .waitFor();
    // The seeded app is established: no marker.
    const app = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: /Authenticator app/ }) });
    expect(await app.getByText('Recently added').count()).toBe(0);
    expect(await reflows(page)).toBeLessThanOrEqual(320);
    await expectNoAxeViolations(page, 'security page with a recent token, forced colours, 320 px');
  });

  it('the step-up notice in Spanish, from the es catalog', { timeout: 120_000 }, async () => {
    // The token of the test above, if it ran, is recent still; one more keeps this test on its own.
    await addRecentToken();
    const page = await open({ locale: 'es-ES' });
    await page.goto(`${env.server.origin}/#/login`);
    await page.getByRole('textbox', { name: /Usuario|Nombre de usuario/ }).fill(authApp.username);
    await page.getByLabel('Contraseña', { exact: true }).fill(authApp.password);
    await page.keyboard.press('Enter');
    const code = page.getByRole('textbox', { name: /Código de seguridad/ });
    await code.fill(codeNow());
    await page.keyboard.press('Enter');
    await page.goto(`${env.server.origin}/widget/embed.html?journey=STEPUP`);
    await page
      .getByText(
        'Los métodos que agregó recientemente no se ofrecen para esta verificación: una nueva aplicación de autenticación, aplicación de token o dispositivo móvil solo puede confirmar cambios en su configuración de seguridad después de 2 a 3 días. Puede seguir usándolos para iniciar sesión.',
      )
      .waitFor({ timeout: 15_000 });
    await expectNoAxeViolations(page, 'step-up with a recent token (es)');
  });
});
