import { codeAt, readDemoStaff, timeStep } from '@gatehouse/identity';
import { Secret } from 'otpauth';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, spokenText } from './support/browser.ts';
import { useServerAndBrowser } from './support/server.ts';

/**
 * Issue 13, "What must be true": the representative console (/console/) and the widget's rep page
 * together, in Chromium, with axe on every screen of both apps. Staff are the demo staff of
 * demo/staff.json (seeded in development); their authenticator codes are computed from the listed
 * secrets on the server's clock.
 */

const staff = Object.fromEntries(
  readDemoStaff(new URL('../demo/staff.json', import.meta.url)).map((s) => [s.name, s]),
);
const emailOnly = { username: 'emailonly1', password: 'Cedar5Brook' };
const otpOnly = { username: 'otponly01', password: 'River8Stone' };
const blocked = { username: 'blocked01', password: 'Orchid2Vale' };

describe('representative console', () => {
  const env = useServerAndBrowser();
  const contexts: BrowserContext[] = [];
  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close();
  });

  async function newPage(): Promise<Page> {
    const context = await env.browser.newContext();
    contexts.push(context);
    return context.newPage();
  }
  const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true });

  /** The staff member's authenticator code now (the server's clock moved to a fresh time step). */
  function staffCode(name: string): string {
    const into = env.server.clock.now().getTime() % 30_000;
    env.server.clock.advance(30_000 - into + 1000);
    const secret = new Uint8Array(Secret.fromBase32(staff[name]!.totpSecret).buffer);
    return codeAt(secret, timeStep(env.server.clock.now(), 30), { algorithm: 'SHA1', digits: 6 });
  }

  /** Keyboard alone: Tab until the target has focus (fails if it never does). */
  async function tabTo(page: Page, target: Locator, max = 60) {
    for (let i = 0; i < max; i++) {
      if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
      await page.keyboard.press('Tab');
    }
    throw new Error(`Tab never reached ${target}`);
  }

  /** A customer in the portal's sign-in, on the code screen of the representative page. */
  async function customerAtRepCode(account: { username: string; password: string }, axe = false) {
    const page = await newPage();
    await page.goto(`${env.server.origin}/#/login`);
    await page.getByRole('textbox', { name: /Username/ }).fill(account.username);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await heading(page, 'Verify your identity').waitFor();
    await page.getByRole('button', { name: "Can't receive the code?" }).click();
    await heading(page, 'Call us to verify your identity').waitFor();
    await page
      .getByText('A representative will verify your identity and provide a temporary security code.')
      .waitFor();
    if (axe) await expectNoAxeViolations(page, 'representative page');
    await page.getByRole('button', { name: 'Continue' }).click();
    await heading(page, 'Enter the code from the representative').waitFor();
    if (axe) await expectNoAxeViolations(page, 'representative code');
    return page;
  }

  async function enterRepCode(page: Page, code: string) {
    await page.getByRole('textbox', { name: /Security code/ }).fill(code);
    await page.getByRole('button', { name: 'Submit' }).click();
  }

  /** Console sign-in with the mouse: name and password, then the authenticator code. */
  async function staffSignIn(name: string, axe = false) {
    const page = await newPage();
    await page.goto(`${env.server.consoleOrigin}/console/`);
    await heading(page, 'Staff sign-in').waitFor();
    if (axe) await expectNoAxeViolations(page, 'console sign-in');
    await page.getByRole('textbox', { name: /Staff name/ }).fill(name);
    await page.getByLabel(/^Password/).fill(staff[name]!.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading(page, 'Authenticator code').waitFor();
    if (axe) await expectNoAxeViolations(page, 'console authenticator code');
    await page.getByRole('textbox', { name: /Authenticator code/ }).fill(staffCode(name));
    await page.getByRole('button', { name: 'Verify' }).click();
    await heading(page, 'Find a customer').waitFor();
    return page;
  }

  async function findCustomer(page: Page, username: string) {
    await page.getByRole('textbox', { name: /Customer username/ }).fill(username);
    await page.getByRole('button', { name: 'Find' }).click();
    await heading(page, `Customer ${username}`).waitFor();
  }

  it('a representative signs in by keyboard, records the verification and issues a code; the customer signs in with it once; another customer cannot use it', async () => {
    const customer = await customerAtRepCode(emailOnly, true);
    const other = await customerAtRepCode(otpOnly);

    // The console by keyboard alone: sign-in, authenticator code, find, verify, issue.
    const page = await newPage();
    await page.goto(`${env.server.consoleOrigin}/console/`);
    await heading(page, 'Staff sign-in').waitFor();
    await expectNoAxeViolations(page, 'console sign-in');
    expect(await page.title()).toBe('Staff sign-in - Gatehouse Console');
    const name = page.getByRole('textbox', { name: /Staff name/ });
    await tabTo(page, name);
    await page.keyboard.press('Enter');
    await page.getByText('Enter your staff name.').first().waitFor();
    expect(await page.title()).toBe('Error: Staff sign-in - Gatehouse Console');
    await expectNoAxeViolations(page, 'console sign-in with errors');
    await tabTo(page, name);
    await page.keyboard.type('rita.rep');
    await page.keyboard.press('Tab');
    await page.keyboard.type(staff['rita.rep']!.password);
    await page.keyboard.press('Enter');
    await heading(page, 'Authenticator code').waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Authenticator code');
    await expectNoAxeViolations(page, 'console authenticator code');
    await tabTo(page, page.getByRole('textbox', { name: /Authenticator code/ }));
    await page.keyboard.type(staffCode('rita.rep'));
    await page.keyboard.press('Enter');
    await heading(page, 'Find a customer').waitFor();
    await expectNoAxeViolations(page, 'console find a customer');
    await tabTo(page, page.getByRole('textbox', { name: /Customer username/ }));
    await page.keyboard.type(emailOnly.username);
    await page.keyboard.press('Enter');
    await heading(page, `Customer ${emailOnly.username}`).waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
      `Customer ${emailOnly.username}`,
    );
    await page.getByText('e****1@example.com').waitFor();
    await expectNoAxeViolations(page, 'console customer');
    // On arrival no radio is 'invalid' (nothing was answered yet); the group says it is required, once.
    const cdp = await page.context().newCDPSession(page);
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
      nodes: Array<{
        role?: { value: string };
        name?: { value: string };
        properties?: Array<{ name: string; value: { value: unknown } }>;
      }>;
    };
    await cdp.detach();
    const property = (n: (typeof nodes)[number], name: string) =>
      n.properties?.find((p) => p.name === name)?.value.value;
    const radios = nodes.filter((n) => n.role?.value === 'radio');
    expect(radios.length).toBeGreaterThan(0);
    expect(
      radios.filter((n) => ![undefined, 'false', false].includes(property(n, 'invalid') as never)),
    ).toEqual([]);
    const group = nodes.find(
      (n) => n.role?.value === 'radiogroup' && n.name?.value === 'How did you verify the caller?',
    );
    expect(property(group!, 'required')).toBe(true);

    // Issue without a verification: refused on the page, nothing issued.
    const issue = page.getByRole('button', { name: 'Issue code' });
    await tabTo(page, issue);
    await page.keyboard.press('Enter');
    await page.getByText('Choose how you verified the caller.').first().waitFor();
    await expectNoAxeViolations(page, 'console issue with errors');
    await tabTo(page, page.getByRole('radio', { name: 'Called back on the phone number on file' }));
    await page.keyboard.press('Space');
    await tabTo(page, page.getByRole('textbox', { name: /Note on the verification/ }));
    await page.keyboard.type('Called back on the number on file; knew the last payment');
    await tabTo(page, issue);
    await page.keyboard.press('Enter');
    const shown = page.getByTestId('issued-code');
    await shown.waitFor();
    await page.getByText('Read the code to the customer. It expires in 10 minutes.').first().waitFor();
    await expectNoAxeViolations(page, 'console code issued');
    const code = (await shown.textContent()) ?? '';
    expect(code).toMatch(/^\d{6}$/);

    // Another customer cannot use it; its owner signs in with it; a second time it is refused.
    await enterRepCode(other, code);
    await other.getByText('Security code not recognized. Try again.').waitFor();
    await expectNoAxeViolations(other, 'representative code refused');
    await enterRepCode(customer, code);
    await heading(customer, `Welcome, ${emailOnly.username}`).waitFor();
    await expectNoAxeViolations(customer, 'signed in with the representative code');
    const again = await customerAtRepCode(emailOnly);
    await enterRepCode(again, code);
    await again.getByText('Security code not recognized. Try again.').waitFor();
  }, 240_000);

  it('a blocked demo account is unblocked from the console and signs in; the customer is told by e-mail', async () => {
    let customer = await newPage();
    const signIn = async () => {
      await customer.goto(`${env.server.origin}/#/login`);
      await customer.getByRole('textbox', { name: /Username/ }).fill(blocked.username);
      await customer.getByLabel('Password', { exact: true }).fill(blocked.password);
      await customer.getByRole('button', { name: 'Log in' }).click();
    };
    await signIn();
    await heading(customer, 'Your account has been blocked').waitFor();

    const page = await staffSignIn('rita.rep');
    await findCustomer(page, blocked.username);
    await page.getByText('Blocked for security reasons').waitFor();
    await page.getByRole('radio', { name: 'Unblock after a security block' }).check();
    await page.getByRole('textbox', { name: /^Reason/ }).fill('Caller verified; fraud check cleared');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('status').filter({ hasText: 'Done. The customer was told by e-mail.' }).waitFor();
    await page.locator('dd', { hasText: /^Active$/ }).waitFor();
    await expectNoAxeViolations(page, 'console block lifted');

    customer = await newPage();
    await signIn();
    await heading(customer, `Welcome, ${blocked.username}`).waitFor();
    await expectNoAxeViolations(customer, 'signed in after the unblock');
    const outbox = await fetch(`${env.server.origin}/api/dev/outbox?to=${blocked.username}@example.com`);
    const mail = (await outbox.json()) as { messages: Array<{ text: string }> };
    expect(mail.messages[0]?.text).toContain('A representative lifted the security block');
  }, 240_000);

  it('verification methods held after repeated wrong codes are unblocked from the console; the customer is told by e-mail (decision 033)', async () => {
    const { db, clock } = env.server.ctx;
    const account = await db
      .selectFrom('accounts')
      .select('id')
      .where('username_key', '=', otpOnly.username)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('factor_holds')
      .values({
        account_id: account.id,
        factor: 'sms',
        blocks: 3,
        window_start: clock.now(),
        held_at: clock.now(),
      })
      .execute();

    const page = await staffSignIn('ray.rep');
    await findCustomer(page, otpOnly.username);
    // A masked number is shown as it is and read as the digits it ends in, not 'X X X'.
    const phone = page.getByRole('listitem').filter({ hasText: '(XXX) XXX-0143' });
    expect(await spokenText(phone)).toBe('number ending in 0 1 4 3');
    const action = page.getByRole('radio', {
      name: 'Unblock verification methods held after repeated wrong codes',
    });
    await action.check();
    await page.getByRole('textbox', { name: /^Reason/ }).fill('Caller verified; codes mistyped');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('status').filter({ hasText: 'Done. The customer was told by e-mail.' }).waitFor();
    await expectNoAxeViolations(page, 'console: verification methods unblocked');
    const left = await db
      .selectFrom('factor_holds')
      .select('factor')
      .where('account_id', '=', account.id)
      .execute();
    expect(left).toEqual([]);
    const outbox = await fetch(`${env.server.origin}/api/dev/outbox?to=${otpOnly.username}@example.com`);
    const mail = (await outbox.json()) as { messages: Array<{ text: string }> };
    expect(mail.messages[0]?.text).toContain('A representative unblocked the verification methods');
  }, 240_000);

  it('a supervisor sees and filters these events in the audit view; a representative sees only their own', async () => {
    const supervisor = await staffSignIn('sam.super', true);
    await supervisor.getByRole('link', { name: 'Audit trail' }).click();
    await heading(supervisor, 'Audit trail').waitFor();
    const table = supervisor.getByRole('table', { name: 'Audit trail' });
    await table.getByRole('cell', { name: 'Issued a security code' }).first().waitFor();
    await table.getByRole('cell', { name: 'Unblocked' }).first().waitFor();
    await table.getByRole('cell', { name: 'Caller verified; fraud check cleared' }).waitFor();
    await expectNoAxeViolations(supervisor, 'console audit (supervisor)');
    await supervisor.getByRole('textbox', { name: 'Staff member' }).fill('rita.rep');
    await supervisor.getByRole('combobox', { name: 'Action' }).selectOption('console-unblock');
    await supervisor.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await table.getByRole('cell', { name: blocked.username }).waitFor();

    const representative = await staffSignIn('ray.rep');
    await representative.getByRole('link', { name: 'Audit trail' }).click();
    await heading(representative, 'Audit trail').waitFor();
    await representative.getByText('Your own console actions.').waitFor();
    const own = representative.getByRole('table', { name: 'Audit trail' });
    await own.getByRole('cell', { name: 'Signed in' }).first().waitFor();
    expect(await own.getByRole('cell', { name: 'rita.rep' }).count()).toBe(0);
    expect(await own.getByRole('cell', { name: 'sam.super' }).count()).toBe(0);
    expect(await representative.getByRole('textbox', { name: 'Staff member' }).count()).toBe(0);
    await expectNoAxeViolations(representative, 'console audit (representative)');
  }, 240_000);

  it('a script on the customer origin cannot read the console: its API is not there and the console origin answers no CORS', async () => {
    const staffPage = await staffSignIn('rita.rep');
    const customer = await staffPage.context().newPage();
    await customer.goto(`${env.server.origin}/#/login`);
    await customer.getByRole('button', { name: 'Log in' }).waitFor();
    const seen = await customer.evaluate(async (consoleOrigin) => {
      const same = await fetch('/api/console/session', { credentials: 'include' });
      let cross: string;
      try {
        const r = await fetch(`${consoleOrigin}/api/console/session`, { credentials: 'include' });
        cross = `read ${r.status} ${r.headers.get('X-XSRF-TOKEN')}`;
      } catch {
        cross = 'blocked';
      }
      return { status: same.status, token: same.headers.get('X-XSRF-TOKEN'), cross };
    }, env.server.consoleOrigin);
    expect(seen).toEqual({ status: 404, token: null, cross: 'blocked' });
    // The staff member's console, in the same browser, is still signed in.
    await staffPage.reload();
    await heading(staffPage, 'Find a customer').waitFor();
  }, 120_000);

  it('a browser set to Spanish: sign-in, customer and audit trail in Spanish, lang="es", axe clean, and the service answers in Spanish', async () => {
    const context = await env.browser.newContext({ locale: 'es-ES' });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${env.server.consoleOrigin}/console/`);
    await heading(page, 'Acceso del personal').waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('es');
    expect(await page.title()).toBe('Acceso del personal - Consola de Gatehouse');
    await page
      .getByText('Solo para el personal del banco. Todas las acciones en la consola quedan registradas.')
      .waitFor();
    await expectNoAxeViolations(page, 'console sign-in (es)');
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await page.getByText('Ingrese su nombre de empleado.').first().waitFor();
    expect(await page.title()).toBe('Error: Acceso del personal - Consola de Gatehouse');
    await expectNoAxeViolations(page, 'console sign-in with errors (es)');

    // The service's message in Spanish (a name that is no staff member's: nobody's lockout moves).
    const name = page.getByRole('textbox', { name: /Nombre de empleado/ });
    const password = page.getByLabel(/^Contraseña/);
    await name.fill('nadie.aqui');
    await password.fill('Wrong1Password');
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await page.getByText('El nombre o la contraseña no son correctos.').waitFor();

    await name.fill('rita.rep');
    await password.fill(staff['rita.rep']!.password);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await heading(page, 'Código de autenticación').waitFor();
    await expectNoAxeViolations(page, 'console authenticator code (es)');
    await page.getByRole('textbox', { name: /Código de autenticación/ }).fill(staffCode('rita.rep'));
    await page.getByRole('button', { name: 'Verificar' }).click();
    await heading(page, 'Buscar un cliente').waitFor();
    await page.getByText('Sesión iniciada como rita.rep (representante)').waitFor();
    await page.getByRole('button', { name: 'Cerrar sesión' }).waitFor();

    await page.getByRole('textbox', { name: /Nombre de usuario del cliente/ }).fill(otpOnly.username);
    await page.getByRole('button', { name: 'Buscar', exact: true }).click();
    await heading(page, `Cliente ${otpOnly.username}`).waitFor();
    await heading(page, 'Estado').waitFor();
    expect(await spokenText(page.getByRole('listitem').filter({ hasText: '(XXX) XXX-0143' }))).toBe(
      'número terminado en 0 1 4 3',
    );
    await page.locator('dd', { hasText: /^Activo$/ }).waitFor();
    await heading(page, 'Emitir un código de seguridad temporal').waitFor();
    await page.getByText(/y caduca en 10 minutos\.$/).waitFor();
    await expectNoAxeViolations(page, 'console customer (es)');

    await page.getByRole('button', { name: 'Emitir código' }).click();
    await page.getByText('Elija cómo verificó la identidad de quien llama.').first().waitFor();
    await expectNoAxeViolations(page, 'console issue with errors (es)');
    await page
      .getByRole('radio', { name: 'Se le devolvió la llamada al número de teléfono registrado' })
      .check();
    await page
      .getByRole('textbox', { name: /Nota sobre la verificación/ })
      .fill('Llamada de vuelta al número registrado');
    await page.getByRole('button', { name: 'Emitir código' }).click();
    await page.getByTestId('issued-code').waitFor();
    // The service's answer, its plural included, and the times through Intl in Spanish (no a. m./AM).
    await page.getByText('Lea el código al cliente. Caduca en 10 minutos.').first().waitFor();
    const dateTime = String.raw`\d{1,2}/\d{1,2}/\d{4}, \d{1,2}:\d{2}:\d{2}`;
    await page.getByText(new RegExp(`^Caduca el ${dateTime}\\. No se volverá a mostrar\\.$`)).waitFor();
    await page
      .locator('dd', { hasText: new RegExp(`^Hay un código vigente hasta el ${dateTime}$`) })
      .waitFor();
    await expectNoAxeViolations(page, 'console code issued (es)');

    await page.getByRole('link', { name: 'Registro de auditoría' }).click();
    await heading(page, 'Registro de auditoría').waitFor();
    await page.getByText('Sus propias acciones en la consola.').waitFor();
    const table = page.getByRole('table', { name: 'Registro de auditoría' });
    await table.getByRole('cell', { name: 'Emitió un código de seguridad' }).first().waitFor();
    await table.getByRole('cell', { name: 'correcto' }).first().waitFor();
    await table.getByRole('columnheader', { name: 'Motivo o verificación' }).waitFor();
    await expectNoAxeViolations(page, 'console audit (es)');
  }, 240_000);

  const repRecovery = {
    en: {
      username: 'alexdemo1',
      password: 'Harbor5Meadow',
      user: /Username/,
      next: 'Continue',
      emailStep: 'Extra Security Step Required',
      otherWay: 'Choose another way to get the code',
      channel: 'Choose how to confirm your identity',
      rep: 'A representative, by phone',
      line: 'Call a representative',
      lineText:
        'Call 1-800-555-0199. A representative will verify your identity and give you a recovery code.',
      codeStep: 'Enter the code from the representative',
      field: /Recovery code from the representative/,
      confirm: 'Confirm',
      invalid: 'Your one-time code is invalid. Please try again or request a new code.',
      reset: 'Reset Password',
      fresh: 'New password',
      again: 'Confirm your password',
      submit: 'Submit',
      changed: 'Password changed successfully',
    },
    es: {
      username: 'pushuser1',
      password: 'Comet5Harbor',
      user: /Nombre de usuario/,
      next: 'Continuar',
      emailStep: 'Se requiere un paso de seguridad adicional',
      otherWay: 'Elegir otra forma de recibir el código',
      channel: 'Elija cómo confirmar su identidad',
      rep: 'Un representante, por teléfono',
      line: 'Llame a un representante',
      lineText:
        'Llame al 1-800-555-0199. Un representante verificará su identidad y le dará un código de recuperación.',
      codeStep: 'Introduzca el código del representante',
      field: /Código de recuperación del representante/,
      confirm: 'Confirmar',
      invalid: 'Su código de un solo uso no es válido. Inténtelo de nuevo o solicite un código nuevo.',
      reset: 'Restablecer contraseña',
      fresh: 'Contraseña nueva',
      again: 'Confirme su contraseña',
      submit: 'Enviar',
      changed: 'La contraseña se cambió correctamente',
    },
  } as const;

  for (const language of ['en', 'es'] as const) {
    it(`recovery through the representative (${language}): the help line step shows the number, the console issues a recovery code in a second context, the code resets the password`, async () => {
      const x = repRecovery[language];
      const context = await env.browser.newContext({ locale: language === 'es' ? 'es-ES' : 'en-US' });
      contexts.push(context);
      const portal = await context.newPage();
      await portal.goto(`${env.server.origin}/#/username`);
      await portal.getByRole('textbox', { name: x.user }).fill(x.username);
      await portal.getByRole('button', { name: x.next }).click();
      await heading(portal, x.emailStep).waitFor();
      await portal.getByRole('button', { name: x.otherWay }).click();
      await heading(portal, x.channel).waitFor();
      await portal.getByRole('radio', { name: x.rep }).check();
      await portal.getByRole('button', { name: x.next }).click();
      // Step 5: the help line.
      await heading(portal, x.line).waitFor();
      await portal.getByText(x.lineText).waitFor();
      await expectNoAxeViolations(portal, `recovery: representative help line (${language})`);
      await portal.getByRole('button', { name: x.next }).click();
      // Step 6: the code from the representative.
      await heading(portal, x.codeStep).waitFor();
      if (language === 'en') expect(await portal.title()).toBe(`${x.codeStep} – Prime Portal`);
      await expectNoAxeViolations(portal, `recovery: code from the representative (${language})`);

      // The console, in a context of its own: a wrong code is refused; the recovery code resets.
      // A representative per language: this file signs rita.rep in often already.
      const page = await staffSignIn(language === 'es' ? 'ray.rep' : 'rita.rep');
      await findCustomer(page, x.username);
      await page.getByRole('radio', { name: 'Called back on the phone number on file' }).check();
      await page
        .getByRole('textbox', { name: /Note on the verification/ })
        .fill('Called back; knew the last payment');
      await page.getByRole('button', { name: 'Issue a recovery code' }).click();
      const shown = page.getByTestId('issued-code');
      await shown.waitFor();
      if (language === 'en') await expectNoAxeViolations(page, 'console recovery code issued');
      const recoveryCode = (await shown.textContent()) ?? '';
      expect(recoveryCode).toMatch(/^\d{6}$/);

      const field = portal.getByRole('textbox', { name: x.field });
      await field.fill(recoveryCode === '000000' ? '111111' : '000000');
      await portal.getByRole('button', { name: x.confirm }).click();
      await portal.getByText(x.invalid).first().waitFor();
      await field.fill(recoveryCode);
      await portal.getByRole('button', { name: x.confirm }).click();
      await heading(portal, x.reset).waitFor();
      await portal.getByLabel(x.fresh, { exact: true }).fill(x.password);
      await portal.getByLabel(x.again, { exact: true }).fill(x.password);
      await portal.getByRole('button', { name: x.submit }).click();
      await portal.getByText(x.changed).first().waitFor();
    }, 180_000);
  }
});
