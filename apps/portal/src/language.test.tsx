import { uiMessages } from '@gatehouse/ui';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chosenLanguage, LanguageProvider, showLanguage, useLanguage } from './language.tsx';
import { t } from './texts.ts';

function browserLanguages(languages: string[]) {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
}

describe("the portal's language (issue 15)", () => {
  afterEach(async () => {
    vi.restoreAllMocks();
    localStorage.clear();
    await showLanguage('en');
  });

  it("a kept choice wins over the browser's languages; a value that is not a shipped language does not", () => {
    browserLanguages(['es-MX', 'en']);
    expect(chosenLanguage()).toBe('es');
    localStorage.setItem('gatehouse.language', 'en');
    expect(chosenLanguage()).toBe('en');
    for (const hostile of ['xx', '<img src=x onerror=alert(1)>', 'ES', '', 'es-MX']) {
      localStorage.setItem('gatehouse.language', hostile);
      expect(chosenLanguage(), hostile).toBe('es');
    }
    browserLanguages(['de-DE', 'fr']);
    expect(chosenLanguage()).toBe('en');
  });

  it('storage that throws (a blocked or private window): the browser decides, and a choice still holds for the page', async () => {
    browserLanguages(['en-GB']);
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    expect(chosenLanguage()).toBe('en');
    function Switch() {
      const { language, choose } = useLanguage();
      return (
        <button type="button" onClick={() => choose('es')}>
          {language} {t('shell.disclosure')}
        </button>
      );
    }
    render(
      <LanguageProvider initial="en">
        <Switch />
      </LanguageProvider>,
    );
    await act(async () => screen.getByRole('button').click());
    await screen.findByText(/^es Las sesiones inactivas/);
    expect(document.documentElement.lang).toBe('es');
    expect(uiMessages.showPassword).toBe('Mostrar contraseña');
  });

  it('two quick choices: the last one is the page’s, whichever texts land first', async () => {
    await Promise.all([showLanguage('es'), showLanguage('en')]);
    expect(document.documentElement.lang).toBe('en');
    expect(t('shell.language')).toBe('Language');
    expect(uiMessages.showPassword).toBe('Show password');
  });
});
