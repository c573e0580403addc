import { afterEach, describe, expect, test, vi } from 'vitest';

/** A fresh copy of the texts module: its state as on a page that has just started. */
async function fresh() {
  vi.resetModules();
  return import('./index.ts');
}

describe("the device app's texts", () => {
  afterEach(() => {
    // Back to jsdom's own (en-US).
    delete (window.navigator as { languages?: unknown }).languages;
  });

  test('switch language together, the pages already loaded included; a missing key shows the key', async () => {
    const texts = await fresh();
    const codes = texts.translator<'codes.title' | 'codes.secondsLeft'>();
    const add = texts.translator<'addTitle'>();
    expect(texts.t('deviceTitle')).toBe('deviceTitle');
    await texts.loadTexts('en');
    expect(texts.textsLanguage()).toBe('en');
    expect(texts.t('deviceTitle')).toBe('Your device');
    expect(texts.t('renamed', 'alex', 'Work phone')).toBe('The device for alex is now called Work phone.');
    // A page's group is not there before its chunk asks for it.
    expect(codes('codes.title')).toBe('codes.title');
    await texts.loadPageTexts('codes');
    expect(codes('codes.title')).toBe('Codes');
    expect(codes('codes.secondsLeft', 1)).toBe('1 s left');

    await texts.loadTexts('es');
    expect(texts.t('deviceTitle')).toBe('Su dispositivo');
    expect(codes('codes.title')).toBe('Códigos');
    expect(codes('codes.secondsLeft', 1)).toBe('Queda 1 s');
    expect(codes('codes.secondsLeft', 25)).toBe('Quedan 25 s');
    expect(texts.t('newRequestsAnnouncement', 3)).toBe('3 solicitudes nuevas. Están en Solicitudes.');
    expect(add('addTitle')).toBe('addTitle');
    await texts.loadPageTexts('add');
    expect(add('addTitle')).toBe('Agregar una cuenta');
    // A key no catalog has (a service outcome the app does not know): the key, never a crash.
    expect(texts.hasText('outcome.notAThing')).toBe(false);
    expect(texts.t('outcome.notAThing' as 'deviceTitle')).toBe('outcome.notAThing');
    expect(texts.hasText('outcome.pushExpired')).toBe(true);
  });

  test("a page's texts that land after a switch are the new language's; the latest switch wins", async () => {
    const texts = await fresh();
    const codes = texts.translator<'codes.title'>();
    await texts.loadTexts('en');
    const page = texts.loadPageTexts('codes');
    const spanish = texts.loadTexts('es');
    const english = texts.loadTexts('en');
    await Promise.all([page, spanish, english]);
    expect(texts.textsLanguage()).toBe('en');
    expect(texts.t('deviceTitle')).toBe('Your device');
    expect(codes('codes.title')).toBe('Codes');

    await texts.loadTexts('es');
    await texts.loadPageTexts('codes');
    expect(codes('codes.title')).toBe('Códigos');
  });

  test('the browser chooses: the first shipped language by its primary subtag, else English', async () => {
    const texts = await fresh();
    browserLanguages(['fr-CA', 'es-MX', 'en']);
    expect(texts.browserLanguage()).toBe('es');
    await texts.loadTexts('es');
    // Dates in the page's language with the browser's region (es-MX), not the first tag (fr-CA).
    expect(texts.textsLocale()).toBe('es-MX');
    browserLanguages(['de-DE']);
    expect(texts.browserLanguage()).toBe('en');
  });
});

function browserLanguages(languages: string[]) {
  Object.defineProperty(window.navigator, 'languages', { value: languages, configurable: true });
}
