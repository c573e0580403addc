import { describe, expect, it, vi } from 'vitest';
import { screenTexts } from '../screens/lazy.ts';

/** A fresh copy of the texts module: its state as on a page that has just loaded the widget. */
async function fresh() {
  vi.resetModules();
  return import('./index.ts');
}

describe("the widget's texts", () => {
  it('the screens prefetched while the login texts load: both stay, whichever lands first', async () => {
    const texts = await fresh();
    await Promise.all([texts.loadScreenTexts(screenTexts), texts.loadTexts('en')]);
    const otp = texts.translator<'otp.heading'>();
    expect(texts.t('login.heading')).toBe('Log in to your account');
    expect(otp('otp.heading')).toBe('Verify your identity');
  });

  it('a new language brings its screens too, and a switch during a screens load ends in the new one', async () => {
    const texts = await fresh();
    await texts.loadTexts('en');
    const pending = texts.loadScreenTexts(screenTexts);
    await texts.loadTexts('es');
    await pending;
    const otp = texts.translator<'otp.heading'>();
    expect(texts.t('login.heading')).toBe('Inicie sesión en su cuenta');
    expect(otp('otp.heading')).toBe('Verifique su identidad');
    await texts.loadTexts('en');
    expect(otp('otp.heading')).toBe('Verify your identity');
    expect(texts.textsLanguage()).toBe('en');
  });

  it("the components' texts follow: Spanish with the login texts, English back after", async () => {
    const texts = await fresh();
    const { uiMessages, spokenMasks } = await import('@gatehouse/ui');
    await texts.loadTexts('es');
    expect(uiMessages.showPassword).toBe('Mostrar contraseña');
    expect(uiMessages.errorSummaryTitle).toBe('Hay un problema');
    // A text with an argument: filled by the compiled catalog.
    expect(spokenMasks('(XXX) XXX-0143')).toBe('número terminado en 0 1 4 3');
    await texts.loadTexts('en');
    expect(uiMessages.showPassword).toBe('Show password');
    expect(spokenMasks('(XXX) XXX-0143')).toBe('number ending in 0 1 4 3');
  });
});
