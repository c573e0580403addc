import { format, loginMessages, paths, smsTemplate } from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';
import { describe, expect, test } from 'vitest';
import { serverText } from '../src/lib/language.ts';
import { codeMail, noticeMail } from '../src/services/mailer.ts';
import { voiceText } from '../src/services/sms.ts';
import {
  check,
  contacts,
  factorAccount,
  latestMessage,
  PASSWORD,
  sendEmail,
  sendSms,
  sendVoice,
} from './support/factors.ts';
import {
  api,
  Client,
  code,
  createAccount,
  expectFailureEnvelope,
  targets,
  useHarness,
} from './support/harness.ts';

const signIn = api(paths.passwordAuthentication);
const message = (r: Parameters<typeof expectFailureEnvelope>[0], http: number, code: number) =>
  expectFailureEnvelope(r, http, code).responseBaseInfo.status.message;

describe.each(targets)('the envelope in the request language ($name)', (target) => {
  const h = useHarness(target);

  test('a wrong password: Spanish for es-MX, English verbatim for fr and without a header', async () => {
    const { app, ctx } = await h.start();
    await createAccount(ctx, { username: 'lucia.perez', password: 'Harbor7Lights' });
    const wrong = { username: 'lucia.perez', password: 'Harbor7Wrong' };
    const spanish = await new Client(app).post(signIn, wrong, {
      'accept-language': 'es-MX,es;q=0.9,en;q=0.5',
    });
    expect(message(spanish, 200, 1403)).toBe(
      'El nombre de usuario o la contraseña no son correctos. Inténtelo de nuevo.',
    );
    const french = await new Client(app).post(signIn, wrong, { 'accept-language': 'fr-FR,fr;q=0.9' });
    expect(message(french, 200, 1403)).toBe(loginMessages.incorrectCredentials);
    const none = await new Client(app).post(signIn, wrong);
    expect(message(none, 200, 1403)).toBe(
      "You've entered an incorrect username or password. Please try again.",
    );
    // Quality decides, not order: English preferred over Spanish.
    const english = await new Client(app).post(signIn, wrong, { 'accept-language': 'es;q=0.4, en-GB' });
    expect(message(english, 200, 1403)).toBe(loginMessages.incorrectCredentials);
  });

  test('validation, malformed JSON and an unknown path in Spanish, with their placeholders', async () => {
    const { app } = await h.start();
    const client = new Client(app);
    const es = { 'accept-language': 'es' };
    const missing = await client.post(signIn, { username: 'lucia.perez' }, es);
    expect(message(missing, 400, 4400)).toBe('La solicitud no es válida: password: es obligatorio');
    // zod's own message in Spanish (its locale); English verbatim without the header.
    const wrongType = await client.post(signIn, { username: 'lucia.perez', password: 7 }, es);
    expect(message(wrongType, 400, 4400)).toBe(
      'La solicitud no es válida: password: Entrada inválida: se esperaba texto, recibido número',
    );
    const english = await client.post(signIn, { username: 'lucia.perez', password: 7 });
    expect(message(english, 400, 4400)).toBe(
      'The request is not valid: password: Invalid input: expected string, received number',
    );
    const malformed = await client.request({
      method: 'POST',
      url: signIn,
      payload: '{"username": ',
      headers: es,
    });
    expect(message(malformed, 400, 4400)).toBe('El cuerpo de la solicitud no es JSON válido.');
    const unknown = await client.request({ method: 'GET', url: '/api/no/such/thing', headers: es });
    expect(message(unknown, 404, 4404)).toBe('No existe este punto de acceso: GET /api/no/such/thing');
  });

  test("a burst of 120 invalid requests in two languages: each answer in its own request's language", async () => {
    const { app } = await h.start();
    const answers = await Promise.all(
      Array.from({ length: 120 }, (_, i) => {
        const spanish = i % 2 === 0;
        return new Client(app)
          .post(signIn, { username: 'lucia.perez', password: 7 }, spanish ? { 'accept-language': 'es' } : {})
          .then((r) => ({ spanish, text: message(r, 400, 4400) }));
      }),
    );
    for (const { spanish, text } of answers) {
      expect(text).toBe(
        spanish
          ? 'La solicitud no es válida: password: Entrada inválida: se esperaba texto, recibido número'
          : 'The request is not valid: password: Invalid input: expected string, received number',
      );
    }
  });

  test('a hostile Accept-Language is ignored, never an error', async () => {
    const { app } = await h.start();
    for (const header of [
      'x'.repeat(20_000),
      ';;;,,,q=abc',
      'es;q=NaN, *;q=1',
      '\u0000es',
      `es-${'a'.repeat(500)}`,
    ]) {
      const r = await new Client(app).post(
        signIn,
        { username: 'nobody.here', password: 'Harbor7Wrong' },
        {
          'accept-language': header,
        },
      );
      expect(r.statusCode).toBe(200);
      expect(message(r, 200, 1403)).toMatch(/Please try again\.|Inténtelo de nuevo\./);
    }
  });
});

describe.each(targets)('e-mails, texts and calls in the account language ($name)', (target) => {
  const h = useHarness(target);

  /** Signs in with a language (the widget sends the one its page shows) up to the second factor. */
  async function signInWith(app: FastifyInstance, username: string, language?: string) {
    const client = new Client(app);
    const headers = language ? { 'accept-language': language } : undefined;
    expect(code(await client.post(signIn, { username, password: PASSWORD }, headers))).toBe(1200);
    expect(code(await client.post(api(paths.sessionLogin), undefined, headers))).toBe(1201);
    return client;
  }
  const accountLanguage = async (ctx: Awaited<ReturnType<typeof h.start>>['ctx'], username: string) =>
    (
      await ctx.db
        .selectFrom('accounts')
        .select('language')
        .where('username', '=', username)
        .executeTakeFirstOrThrow()
    ).language;

  test('a customer who signs in in Spanish gets the e-mail code, the text and the call in Spanish', async () => {
    const { app, ctx } = await h.start();
    await factorAccount(ctx, 'sofia.ruiz', {
      phones: [{ value: '2025550143', voice: true }],
      emails: [{ value: 'sofia.ruiz@example.com' }],
    });
    expect(await accountLanguage(ctx, 'sofia.ruiz')).toBe('en');
    const client = await signInWith(app, 'sofia.ruiz', 'es-ES,es;q=0.9,en;q=0.8');
    expect(await accountLanguage(ctx, 'sofia.ruiz')).toBe('es');

    const { email, phone } = await contacts(client);
    expect(code(await sendEmail(client, email[0]!.value))).toBe(1200);
    const mail = await latestMessage(ctx.db, 'sofia.ruiz@example.com');
    expect(mail.text).toContain(`Su código de un solo uso de Prime Portal es ${mail.code}.`);
    expect(mail.text).toContain('Caduca en 30 minutos.');
    expect(mail.text).not.toMatch(/one-time code|expires/);

    // The widget's template names the sender; the text goes out in the account's language.
    expect(code(await sendSms(client, phone[0]!.value, format(smsTemplate, 'PrimeSrv')))).toBe(1200);
    const text = await latestMessage(ctx.db, '+12025550143');
    expect(text.text).toBe(
      `PrimeSrv msj: Su código de seguridad es: ${text.code} NO COMPARTA ESTE CÓDIGO CON NADIE. Ingréselo en línea para completar su operación. Gracias.`,
    );
    expect(code(await sendVoice(client, phone[0]!.value))).toBe(1200);
    const call = await latestMessage(ctx.db, '+12025550143');
    expect(call.text).toBe(voiceText(call.code!, 'es'));
    expect(call.text).toMatch(/^Su código de seguridad es \d, \d, \d, \d, \d, \d\. Repito/);
    expect(code(await check(client, 'voice', call.code!))).toBe(1200);

    // A later sign-in that names no language leaves it; one in English sets it back.
    await signInWith(app, 'sofia.ruiz');
    expect(await accountLanguage(ctx, 'sofia.ruiz')).toBe('es');
    await signInWith(app, 'sofia.ruiz', 'en-US,en');
    expect(await accountLanguage(ctx, 'sofia.ruiz')).toBe('en');
  });

  test("the code e-mail names the deployment's PRODUCT_NAME, in either language", async () => {
    const { app, ctx } = await h.start({ PRODUCT_NAME: 'Riverside Bank Online' });
    await factorAccount(ctx, 'lucia.mora', { emails: [{ value: 'lucia.mora@example.com' }] });
    const spanish = await signInWith(app, 'lucia.mora', 'es');
    expect(code(await sendEmail(spanish, (await contacts(spanish)).email[0]!.value))).toBe(1200);
    const mail = await latestMessage(ctx.db, 'lucia.mora@example.com');
    expect(mail.text).toContain(`Su código de un solo uso de Riverside Bank Online es ${mail.code}.`);
    expect(mail.text).not.toContain('Prime Portal');
    const english = await signInWith(app, 'lucia.mora', 'en');
    expect(code(await sendEmail(english, (await contacts(english)).email[0]!.value))).toBe(1200);
    const again = await latestMessage(ctx.db, 'lucia.mora@example.com');
    expect(again.text).toContain(`Your Riverside Bank Online one-time code is ${again.code}.`);
  });

  test('the Spanish template is accepted for an allowed sender, any other text refused', async () => {
    const { app, ctx } = await h.start();
    await factorAccount(ctx, 'mateo.diaz', { phones: [{ value: '2025550199' }] });
    const client = await signInWith(app, 'mateo.diaz', 'es');
    const { phone } = await contacts(client);
    const spanish = serverText('es', 'smsTemplate', ['PrimeSrv']);
    expect(code(await sendSms(client, phone[0]!.value, serverText('es', 'smsTemplate', ['EvilBank'])))).toBe(
      4400,
    );
    expect(code(await sendSms(client, phone[0]!.value, spanish))).toBe(1200);
    expect((await latestMessage(ctx.db, '+12025550199')).text).toMatch(/^PrimeSrv msj: /);
  });

  test('an English account is unchanged, and a wrong password names no language', async () => {
    const { app, ctx } = await h.start();
    await factorAccount(ctx, 'oliver.king', { emails: [{ value: 'oliver.king@example.com' }] });
    // A wrong password with a Spanish header: only the proven owner sets the language.
    await new Client(app).post(
      signIn,
      { username: 'oliver.king', password: 'Harbor7Wrong' },
      { 'accept-language': 'es' },
    );
    expect(await accountLanguage(ctx, 'oliver.king')).toBe('en');
    const client = await signInWith(app, 'oliver.king');
    const { email } = await contacts(client);
    expect(code(await sendEmail(client, email[0]!.value))).toBe(1200);
    const mail = await latestMessage(ctx.db, 'oliver.king@example.com');
    expect(mail.text).toContain(`Your Prime Portal one-time code is ${mail.code}.`);
  });
});

describe('service texts', () => {
  test('the e-mails in Spanish: the code, a notice with its date as Spanish writes it', () => {
    const code = codeMail({ to: 'a@example.com', code: '042917', expiryMinutes: 1, language: 'es' });
    expect(code.subject).toBe('Prime Portal: su código de un solo uso');
    expect(code.text).toContain('Caduca en 1 minuto.');
    const notice = noticeMail({
      to: 'a@example.com',
      notice: 'security-change',
      change: 'contactAdded',
      at: new Date(Date.UTC(2026, 10, 23, 15, 4, 5)),
      supportPhone: '1-800-555-0100',
      language: 'es',
    });
    expect(notice.text).toContain(
      'Se hizo un cambio en su configuración de seguridad: se agregó un número de teléfono o una dirección de correo electrónico, el 23 de noviembre de 2026',
    );
    expect(notice.text).toContain('Si no fue usted, llame al 1-800-555-0100.');
    const english = noticeMail({ to: 'a@example.com', notice: 'password-changed' });
    expect(english.text).toBe(
      'The password of your Prime Portal account was changed. Devices you had trusted will ask for a second factor again, and other sign-ins were ended.\n\nIf this was not you, call us at once: a representative can secure your account.\n\nGatehouse sign-in',
    );
  });

  test('Spanish plurals follow the number; English keeps the specs wording', () => {
    expect(serverText('es', 'rateLimited', [1])).toBe(
      'Demasiados intentos. Espere 1 segundo e inténtelo de nuevo.',
    );
    expect(serverText('es', 'rateLimited', [30])).toBe(
      'Demasiados intentos. Espere 30 segundos e inténtelo de nuevo.',
    );
    expect(serverText('en', 'rateLimited', [30])).toBe(
      'Too many attempts. Please wait 30 seconds and try again.',
    );
    expect(serverText('es', 'factorCodeSent', ['j***@example.com', 30])).toBe(
      'Enviamos el código a j***@example.com. Caducará en 30 minutos.',
    );
  });
});
