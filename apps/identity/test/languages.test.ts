import { loginMessages, paths } from '@gatehouse/contract';
import { describe, expect, test } from 'vitest';
import { serverText } from '../src/lib/language.ts';
import { api, Client, createAccount, expectFailureEnvelope, targets, useHarness } from './support/harness.ts';

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
    expect(message(missing, 400, 4400)).toBe('La solicitud no es válida: password: is required');
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

  test('a hostile Accept-Language is ignored, never an error', async () => {
    const { app } = await h.start();
    for (const header of [
      'x'.repeat(20_000),
      ';;;,,,q=abc',
      'es;q=NaN, *;q=1',
      '\u0000es',
      'es-' + 'a'.repeat(500),
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

describe('service texts', () => {
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
